"""docs/operations.md, "Installing on a server", run as written (issue 34): each fenced block
of that section, in order, under a temporary folder standing for `/`, with free ports for
443 and 8024 and `localhost` for `play.example.org`. The wheel is built from a copy of the
checkout, installed into `/opt/t24`, configured by the documented `server.toml`, started,
put behind the documented nginx with a self-signed certificate, reached over https and wss,
then upgraded to a wheel of a later version: the tables, the tokens and the signing key
survive the upgrade.

The wss client is the `websockets` package's (stdlib TLS, as a browser checks it). nginx is
Debian's (`.ci/run` installs it): without it this test skips on a developer's machine and
fails in CI, as the browser tests do.
"""

from __future__ import annotations

import datetime
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from installed_wheel import (
    ROOT,
    InstalledServer,
    Workspace,
    checkout_files,
    clean_env,
    project_version,
    run,
    share_dependencies,
)
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect as ws_connect

from protocol.client import ClientSession
from protocol.messages import SUBPROTOCOL

# `make test-install`, run by .ci/run after `make test` (docs/testing.md, "Suite time")
pytestmark = [pytest.mark.e2e, pytest.mark.install]

DOC = ROOT / "docs" / "operations.md"
WEB = ROOT / "clients" / "web" / "public"
UPGRADED = f"{project_version()}.post1"


def section_blocks() -> dict[str, str]:
    """The fenced blocks of "Installing on a server" before its first subsection ("With
    pipx": tests/e2e/test_pipx_install.py), by name: a shell block by its first line's
    comment (`# build`), the others by their language."""
    text = DOC.read_text().split("### Installing on a server\n", 1)[1]
    text = text.split("\n#### ", 1)[0]
    blocks: dict[str, str] = {}
    for language, body in re.findall(r"```(\w+)\n(.*?)```", text, re.DOTALL):
        body = "\n".join(line.removeprefix("   ") for line in body.splitlines()) + "\n"
        name = body.splitlines()[0].removeprefix("# ") if language == "sh" else language
        blocks[name] = body
    assert list(blocks) == ["build", "install", "toml", "start", "nginx", "upgrade"], list(blocks)
    return blocks


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Host:
    """The temporary `/` and the substitutions that put the documented paths, ports and
    name there."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.proxy_port, self.server_port = free_port(), free_port()
        self.origin = f"https://localhost:{self.proxy_port}"

    def __call__(self, text: str) -> str:
        for path in ("/opt/t24", "/etc/t24", "/var/lib/t24", "/etc/ssl/t24"):
            text = text.replace(path, f"{self.root}{path}")
        text = text.replace("python3 -m ", f"{sys.executable} -m ")
        text = text.replace("server_name play.example.org", "server_name localhost")
        text = text.replace("play.example.org", f"localhost:{self.proxy_port}")
        text = text.replace("listen 443 ssl", f"listen 127.0.0.1:{self.proxy_port} ssl")
        return text.replace("8024", str(self.server_port))

    def commands(self, block: str) -> list[str]:
        return [self(line) for line in block.splitlines() if line and not line.startswith("#")]


def sh(command: str, cwd: Path) -> str:
    """One documented command line, by bash (the globs of `./dist/t24-*.whl`): its stdout."""
    done = run(["bash", "-c", command], cwd=cwd, timeout=300, env=clean_env(PIP_NO_DEPS="1"))
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    return done.stdout


def self_signed(folder: Path) -> None:
    """fullchain.pem and privkey.pem for localhost (cryptography, a t24 dependency)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "fullchain.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    (folder / "privkey.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )


def start_nginx(host: Host, site: str) -> subprocess.Popen:
    """nginx in the foreground with the documented site as its `http` section's content."""
    prefix = host.root / "nginx"
    (prefix / "temp").mkdir(parents=True)
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers must read the temp folder
    (prefix / "nginx.conf").write_text(
        f"{user}worker_processes 1;\npid {prefix}/nginx.pid;\nerror_log {prefix}/error.log;\n"
        f"events {{}}\nhttp {{\naccess_log {prefix}/access.log;\n"
        f"client_body_temp_path {prefix}/temp/body;\nproxy_temp_path {prefix}/temp/proxy;\n"
        f"{site}}}\n"
    )
    nginx = subprocess.Popen(
        [
            shutil.which("nginx") or "nginx",
            "-p",
            str(prefix),
            "-e",
            str(prefix / "error.log"),
            "-c",
            str(prefix / "nginx.conf"),
            "-g",
            "daemon off;",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 15
    while True:
        try:
            socket.create_connection(("127.0.0.1", host.proxy_port), timeout=1).close()
            return nginx
        except OSError:
            if nginx.poll() is not None or time.monotonic() > deadline:
                nginx.kill()
                log = (prefix / "error.log").read_text() if (prefix / "error.log").exists() else ""
                raise RuntimeError(f"nginx did not start: {log}") from None
            time.sleep(0.05)


def tls(host: Host) -> ssl.SSLContext:
    """A client context that trusts the test's self-signed certificate, and checks it."""
    return ssl.create_default_context(cafile=str(host.root / "etc/ssl/t24/fullchain.pem"))


def https_get(host: Host, path: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(host.origin + path, timeout=10, context=tls(host)) as response:
        return response.status, response.read()


class WssClient:
    """A t24 client over wss through the proxy: the `websockets` sync client (stdlib ssl;
    Twisted's TLS would need pyOpenSSL, which t24 does not depend on) and `protocol/`."""

    def __init__(self, host: Host, origin: str | None = None) -> None:
        self.session = ClientSession()
        self.connecting = ws_connect(
            f"wss://localhost:{host.proxy_port}/ws",
            ssl=tls(host),
            origin=origin or host.origin,
            subprotocols=[SUBPROTOCOL],
            open_timeout=10,
        )

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        request_id, frame = self.session.request(kind, **fields)
        self.socket.send(frame)
        while True:
            message = self.session.receive(self.socket.recv(timeout=10))
            if message.get("id") == request_id and message["type"] != "event":
                return message

    def __enter__(self) -> WssClient:
        self.socket = self.connecting.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.connecting.__exit__(*exc)


def tables(host: Host, director: str) -> set[str]:
    """`list_tables` over wss through the proxy, from the allowed origin."""
    with WssClient(host) as client:
        assert client.request("hello", token=director)["type"] == "welcome"
        return {t["table"] for t in client.request("list_tables")["tables"]}


def create_table(host: Host, director: str, table: str) -> None:
    with WssClient(host) as client:
        assert client.request("hello", token=director)["type"] == "welcome"
        seats = [{"seat": f"s{n}", "name": name} for n, name in ((1, "Ada"), (2, "Bo"), (3, "Cy"))]
        deck = [{"card_id": "a", "numbers": [1, 2, 3, 4], "dots": 1}]
        options = {"seats": seats, "deck": deck}
        created = client.request("create_table", table=table, options=options)
        assert created["type"] == "table_created", created


def test_the_documented_install_tls_proxy_and_upgrade_run_as_written():
    if shutil.which("nginx") is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("nginx is not installed (.ci/run installs it)")
        pytest.skip("nginx is not installed (apt-get install nginx)")
    blocks = section_blocks()
    workspace = Workspace(prefix="t24-server-install-")
    host = Host(workspace.folder("root"))
    checkout = workspace.folder("checkout")
    for name in checkout_files():
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, checkout / name)
    server: InstalledServer | None = None
    nginx: subprocess.Popen | None = None
    try:
        for command in host.commands(blocks["build"]) + host.commands(blocks["install"]):
            sh(command, cwd=checkout)
        share_dependencies(host.root / "opt/t24")
        assert oct((host.root / "var/lib/t24").stat().st_mode & 0o777) == "0o700"
        settings = host.root / "etc/t24/server.toml"
        settings.parent.mkdir(parents=True)
        settings.write_text(host(blocks["toml"]))

        serve, token, key = host.commands(blocks["start"])
        service = workspace.folder("service")  # the service's working folder: left empty
        env = clean_env(T24_READY_FILE=str(workspace.root / "ready.json"))
        argv = shlex.split(serve)
        server = InstalledServer(Path(argv[0]), service, *argv[1:], env=env)
        server.ready_file = workspace.root / "ready.json"
        server.start()
        assert server.port == host.server_port
        assert (host.root / "var/lib/t24/t24.secret").stat().st_mode & 0o777 == 0o600
        director = sh(token, cwd=service).strip()
        public_key = sh(key, cwd=service).strip()
        assert re.fullmatch(r"[0-9a-f]{64}", public_key)
        assert (host.root / "var/lib/t24/t24-signing.key").stat().st_mode & 0o777 == 0o600

        self_signed(host.root / "etc/ssl/t24")
        nginx = start_nginx(host, host(blocks["nginx"]))
        assert https_get(host, "/") == (200, (WEB / "index.html").read_bytes())
        assert https_get(host, "/js/main.js") == (200, (WEB / "js/main.js").read_bytes())
        assert https_get(host, "/healthz") == (200, b"ok\n")
        create_table(host, director, "before-upgrade")
        assert "before-upgrade" in tables(host, director)
        with pytest.raises(InvalidStatus) as refused:  # allowed_origins of server.toml holds
            with WssClient(host, origin="https://evil.test"):
                pass
        assert refused.value.response.status_code == 400

        # The next version: built as in step 1 into an empty dist/, installed over the old one
        pyproject = checkout / "pyproject.toml"
        pyproject.write_text(
            pyproject.read_text().replace(f'"{project_version()}"', f'"{UPGRADED}"', 1)
        )
        shutil.rmtree(checkout / "dist")
        for command in host.commands(blocks["build"]):
            sh(command, cwd=checkout)
        assert server.stop() == 0, server.log_text()
        install, show_version = host.commands(blocks["upgrade"])
        sh(install, cwd=checkout)
        assert sh(show_version, cwd=service).split() == ["t24-server", UPGRADED]
        server.start()
        assert tables(host, director) >= {"before-upgrade"}  # the store and the secret kept
        assert sh(key, cwd=service).strip() == public_key  # the signing key kept
        assert https_get(host, "/")[0] == 200
        assert not any(service.iterdir())  # nothing written beside the service
    finally:
        if server is not None:
            server.stop()
        if nginx is not None:
            nginx.terminate()
            nginx.wait(timeout=10)
        workspace.remove()
