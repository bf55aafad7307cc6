// `make web`: copy the ES modules of @msgpack/msgpack (from node_modules, installed by
// `npm ci` from package-lock.json) into public/vendor/msgpack/, with the licence.
// Why a copy and no bundler: the package ships plain ES modules the browser loads as they
// are; the committed copy lets `make run` work without Node.js, and
// tests/unit/test_web_build.py checks it equals a fresh one.
// Usage: node build.mjs [OUT_DIR]   (default public/vendor/msgpack)
import { cpSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const source = join(here, "node_modules", "@msgpack", "msgpack");
const out = process.argv[2] || join(here, "public", "vendor", "msgpack");

function copyModules(from, to) {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from).sort()) {
    const path = join(from, name);
    if (statSync(path).isDirectory()) copyModules(path, join(to, name));
    else if (name.endsWith(".mjs")) cpSync(path, join(to, name));
  }
}

rmSync(out, { recursive: true, force: true });
copyModules(join(source, "dist.esm"), out);
cpSync(join(source, "LICENSE"), join(out, "LICENSE"));
console.log(`@msgpack/msgpack ES modules copied to ${out}`);
