// The connection to t24-server: msgpack frames over one WebSocket (docs/protocol.md).
// It keeps, per joined table, the view, the live deadlines, the last seq and the offset
// between the server's clock and this browser's, all taken from the snapshot and the pushes
// (no game rules here). After a dropped connection or a server restart it reconnects on its
// own, says hello again and joins each table with after_seq = the last seq it saw.
//
// Several nodes (docs/protocol.md, `moved`): a `join`, `command` or `query` answered `moved`
// names the node that serves the table. The connection then moves there: it closes, opens
// the named URL with the same token, says hello, joins its table again from the last seq
// it saw (no gap, no duplicate) and sends the moved request again (nothing was done with
// it). A request keeps its promise across the move. If the node it moved to drops it (the
// node died, or lost the table: close 1012), the next attempt goes back to the page's own
// server, which points at the table's node again. A connection with other tables joined does
// not move (they are served here): the request is refused with code `moved`, and the
// caller may follow that table on a connection of its own (the director's scoreboard does).
import { decode, encode } from "../vendor/msgpack/index.mjs";

const SUBPROTOCOL = "t24.v1";
const RETRY_MS = [250, 500, 1000, 2000, 3000];
const QUICK_MOVES = 2; // moves followed at once; then as slowly as reconnects (a failover)

/** The ws:// URL of the server that served this page (same host and port, path /ws). */
export function serverUrl(location) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

/** The browser's clock in Unix microseconds. */
export function localMicros() {
  return Math.round(Date.now() * 1000);
}

/** Applies a `view` or `patch` of a push to the view held (protocol/views.py in JS). */
export function applyViewMessage(current, message) {
  if (message.view) return { ...message.view };
  if (!message.patch || !current) return null;
  const updated = { ...current };
  for (const key of message.patch.unset || []) delete updated[key];
  Object.assign(updated, message.patch.set || {});
  return updated;
}

export class Connection {
  /**
   * listener: {status(state, detail), welcome(welcome), table(tableState, push|null),
   *            presence(msg), fatal(error)}; every method optional.
   */
  constructor(url, token, listener) {
    this.url = url;
    this.home = url; // the page's own server: where a lost connection starts again
    this.token = token;
    this.moves = 0; // `moved` replies followed since the last snapshot
    this.moveDelay = null; // set while moving: the delay before opening the new URL
    this.redo = []; // requests answered `moved`, sent again on the node they moved to
    this.listener = listener;
    this.nextId = 1;
    this.pending = new Map();
    this.tables = new Map(); // table id -> {table, game, view, deadlines, seq, offset, presence}
    this.welcome = null;
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
  }

  emit(name, ...args) {
    const handler = this.listener[name];
    if (handler) handler(...args);
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    if (this.socket) this.socket.close(1000);
  }

  open() {
    if (this.moveDelay === null) this.emit("status", this.attempt === 0 ? "connecting" : "reconnecting");
    this.moveDelay = null;
    const socket = new WebSocket(this.url, SUBPROTOCOL);
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    socket.onopen = () => this.greet();
    socket.onmessage = (frame) => this.receive(frame.data);
    socket.onclose = (close) => this.closed(socket, close);
  }

  async greet() {
    try {
      this.welcome = await this.request("hello", { token: this.token });
    } catch (error) {
      if (error.code === "unauthorized" || error.code === "forbidden") this.fail(error);
      else if (this.socket) this.socket.close(1000); // e.g. the socket closed mid-hello: retry
      return;
    }
    this.attempt = 0;
    const rejoin = [...this.tables.values()]; // the tables joined before this connection
    const redo = this.redo;
    this.redo = [];
    this.emit("welcome", this.welcome);
    const joins = new Map();
    for (const state of rejoin) {
      // from the last seq seen; before any snapshot, as the first join asked (e.g. 0)
      const after = state.seq !== null ? state.seq : state.firstAfter;
      const joined = this.sendJoin(state.table, after, state.presence, state.watch);
      joins.set(state.table, joined);
      joined.catch((error) => { if (!redo.some((r) => r.fields.table === state.table)) this.emit("status", "error", error); });
    }
    for (const pending of redo) { // the requests answered `moved`, once more on this node
      const again = pending.type === "join" && joins.has(pending.fields.table)
        ? joins.get(pending.fields.table) : this.request(pending.type, pending.fields);
      again.then(pending.resolve, pending.reject);
    }
    this.emit("status", "online", this.url === this.home ? null : { url: this.url });
  }

  /** A `moved` reply to `pending`: follow it (see the module doc), or refuse the request
   * when other tables are joined on this connection (they are served here). */
  moved(pending, message) {
    const others = [...this.tables.keys()].filter((table) => table !== message.table);
    if (others.length) {
      if (pending.type === "join") this.tables.delete(message.table);
      pending.reject({ code: "moved", message: `table ${message.table} is served by ${message.url}`,
        table: message.table, url: message.url });
      return;
    }
    this.redo.push(pending);
    this.moves += 1;
    this.moveDelay = this.moves <= QUICK_MOVES ? 0 : RETRY_MS[Math.min(this.moves, RETRY_MS.length - 1)];
    this.url = message.url;
    this.emit("status", "moving", { table: message.table, url: message.url });
    if (this.socket) this.socket.close(1000);
  }

  fail(error) {
    this.stopped = true;
    this.emit("fatal", error);
    if (this.socket) this.socket.close(1000);
  }

  closed(socket, close) {
    if (socket !== this.socket) return;
    for (const [, pending] of this.pending) {
      pending.reject({ code: "disconnected", message: "the connection was lost" });
    }
    this.pending.clear();
    if (this.stopped) return;
    if (this.moveDelay !== null) { // closed to follow a `moved`: open the named node
      setTimeout(() => this.open(), this.moveDelay);
      return;
    }
    if (this.url !== this.home) this.url = this.home; // the node moved to dropped us: start over
    const delay = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    this.emit("status", "offline", { code: close.code, reason: close.reason });
    setTimeout(() => this.open(), delay);
  }

  /** Sends a request; resolves with its reply, rejects with the `error` message. */
  request(type, fields = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        reject({ code: "disconnected", message: "not connected" });
        return;
      }
      this.pending.set(id, { resolve, reject, type, fields });
      this.socket.send(encode({ type, id, ...fields }));
    });
  }

  /** Joins a table (and joins it again after every reconnect, from the last seq seen).
   * `afterSeq: 0` also brings the table's history (redacted for this token), for a feed.
   * `watch: true` only watches: a director's or proctor's join of a table another node
   * serves is then answered from a replica here, not `moved`. */
  join(table, { presence = false, afterSeq = null, watch = false } = {}) {
    if (!this.tables.has(table)) {
      this.tables.set(table, {
        table, game: null, view: null, deadlines: [], seq: null, offset: 0, presence, watch, firstAfter: afterSeq,
      });
    }
    return this.sendJoin(table, afterSeq, presence, watch);
  }

  sendJoin(table, afterSeq, presence, watch = false) {
    const fields = { table };
    if (afterSeq !== null && afterSeq !== undefined) fields.after_seq = afterSeq;
    if (presence) fields.presence = true;
    if (watch) fields.watch = true;
    return this.request("join", fields);
  }

  command(table, name, args = {}) {
    return this.request("command", { table, name, args });
  }

  receive(data) {
    let message;
    try {
      message = decode(new Uint8Array(data));
    } catch (error) {
      this.emit("status", "error", { code: "bad_encoding", message: String(error) });
      return;
    }
    if (message.type === "event") {
      this.pushed(message);
      return;
    }
    if (message.type === "presence") {
      this.emit("presence", message);
      return;
    }
    if (message.type === "snapshot") this.snapshot(message);
    if (message.id === null || message.id === undefined) {
      if (message.type === "error") {
        // an error without an id: a frame the server could not read, or the token expired
        if (message.code === "unauthorized") this.fail(message);
        else this.emit("status", "error", message);
      }
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.type === "moved") this.moved(pending, message);
    else if (message.type === "error") pending.reject(message);
    else pending.resolve(message);
  }

  snapshot(message) {
    const state = this.tables.get(message.table);
    if (!state) return;
    state.game = message.game;
    state.view = message.view;
    state.deadlines = message.deadlines || [];
    state.seq = message.seq;
    state.offset = message.server_time - localMicros();
    this.moves = 0; // joined: the next `moved` is followed at once again
    this.emit("table", state, null);
  }

  pushed(push) {
    const state = this.tables.get(push.table);
    if (!state) return;
    if (state.seq !== null && push.seq <= state.seq) {
      // a catch-up push the snapshot already holds: only the feed wants it
      this.emit("table", state, { ...push, catchUp: true });
      return;
    }
    state.seq = push.seq;
    state.offset = push.at - localMicros();
    if (push.view || push.patch) {
      const view = applyViewMessage(state.view, push);
      if (view === null) {
        this.sendJoin(state.table, state.seq, state.presence); // missed the snapshot
        return;
      }
      state.view = view;
    }
    if (push.deadlines) state.deadlines = push.deadlines;
    this.emit("table", state, push);
  }

  /** The server's clock now, in Unix microseconds, as the last snapshot or push tells. */
  serverNow(state) {
    return localMicros() + (state ? state.offset : 0);
  }
}
