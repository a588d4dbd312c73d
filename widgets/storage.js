// musteach BrowserStore: keeps the learner's records in this browser's localStorage, for the kernel.
//
// Each record (an answer, a quiz run, a step of a run in progress, a game, a setting) is kept under a key of
// its own, `<key>/r/<record id>`, written once and never overwritten: two quizzes on one page, two tabs or a
// reload never lose each other's records. `<key>` itself keeps a snapshot of the whole progress (the kernel's
// merge of everything it knows), written only when it still holds what this page last read, so that a writer
// that has not seen another's snapshot merges it first (see write()).
//
// Browser -> kernel (custom messages):
//   {type: "records", items: [<record JSON>...], reason: "load"|"other-tab"}: the records this browser keeps
//     (sent in batches of at most PART_CHARS characters before the first "stored"), and each record another tab
//     writes.
//   {type: "stored", value: <string|null>, reason: "load"|"other-tab", error: <string>}
//     sent once when the widget starts (what localStorage holds), and again whenever another tab of this
//     browser writes the same key (the kernel merges it, so two tabs lose nothing).
//     A value longer than PART_CHARS is sent instead in parts (the server refuses big websocket messages):
//   {type: "stored_part", id: <string>, index: <int>, count: <int>, data: <string>, reason}
//     parts 0..count-1 of one value, in order; the kernel joins them and reads them as one "stored".
//   {type: "stored", value: null, reason, error: "", too_big: <length>}   a value longer than MAX_CHARS.
//   {type: "saved", ok: <bool>, error: <string>, full: <bool>}   after each write (full: the storage is full).
// Kernel -> browser:
//   the "value" trait: the JSON to keep; written to localStorage on every change, once the first
//   "stored" message has gone out (so an empty kernel never overwrites what the browser holds).
//   {type: "set_aside", name: <key>, value: <string|null>}: keep unreadable progress under another key
//     (null: a copy of what the key holds now).
//   {type: "reload"}: send "stored" again.
//   {type: "put", records: [[<id>, <record JSON>]...]}: keep each record under its own key (once).
//   {type: "forget", ids: [<id>...]}: remove those records' keys, if they hold steps (a step of a quiz run is
//     useless once the run's own record is kept; nothing else is ever removed).
//   {type: "write"}: write the "value" trait again (after an "other-writer" snapshot that changed nothing).
//   {type: "loaded", load: <id>}: the page's load (its records and "stored" with that id) has been read.
//
// The load handshake. The page's first "records" and "stored" carry `load: <id>` and go out only once every
// widget model of the page has been made (queued until ready): the kernel answers a load by redrawing the
// widgets around the store (a quiz re-picks its question from the saved progress, its status line says where
// progress is kept), and an answer to a model the page has not made yet is dropped by the page (its comm has no
// handler yet), leaving "Looking for your saved progress" on screen for good; a reload under load did that.
// Then the load is sent again, same id, until the kernel answers {type: "loaded"} (retry until answered): the
// kernel reads a load once and answers each copy.

// At most 6 bytes a character once escaped in JSON: 32,000 characters stay under 200 KB a message.
const PART_CHARS = 32000;
const MAX_CHARS = 5000000;
// The load is sent again after LOAD_RETRY_MS, then after twice that... (at most LOAD_RETRY_MAX_MS between two),
// LOAD_TRIES times at most; the page waits at most READY_WAIT_MS for its widget models before it loads anyway.
const LOAD_RETRY_MS = 1500;
const LOAD_RETRY_MAX_MS = 10000;
const LOAD_TRIES = 30;
const READY_WAIT_MS = 10000;
let partsSent = 0;

// Resolves once every widget model the page's widget manager has begun to make is made (their comms have
// handlers), or after READY_WAIT_MS; at once where the manager does not say (another front end).
function modelsReady(model) {
  const models = model.widget_manager && model.widget_manager._models;
  if (!models || typeof models !== "object") return Promise.resolve();
  const all = Promise.allSettled(Object.values(models));
  return Promise.race([all, new Promise((resolve) => setTimeout(resolve, READY_WAIT_MS))]);
}

function storage() {
  try {
    return window.localStorage;
  } catch (e) {
    return null;
  }
}

function errorText(e) {
  return (e && (e.name || e.message)) ? `${e.name || "Error"}: ${e.message || ""}` : String(e);
}

// Whether a localStorage write failed because the browser's storage for this site is full.
function isQuotaError(e) {
  return !!e && (e.name === "QuotaExceededError" || e.name === "NS_ERROR_DOM_QUOTA_REACHED" || e.code === 22);
}

function forgetSteps(ls, prefix, ids) {
  for (const id of ids) {
    const name = prefix + id;
    try {
      const record = JSON.parse(ls.getItem(name) || "null");
      if (record && record.kind === "step") ls.removeItem(name);
    } catch (e) {
      // an unreadable record stays where it is
    }
  }
}

function initialize({ model }) {
  const key = () => model.get("key");
  const recordPrefix = () => `${key()}/r/`;
  let loaded = false;
  let lastSeen = null; // the snapshot under key() as this page last read or wrote it

  function sendRecords(reason, values, load) {
    let batch = [];
    let size = 0;
    const send = (items) => model.send(load === undefined ? { type: "records", items, reason } : { type: "records", items, reason, load });
    for (const value of values) {
      if (typeof value !== "string") continue;
      if (batch.length && size + value.length > PART_CHARS) {
        send(batch);
        batch = [];
        size = 0;
      }
      batch.push(value);
      size += value.length;
    }
    if (batch.length) send(batch);
  }

  function storedRecords() {
    const ls = storage();
    const out = [];
    if (ls === null) return out;
    try {
      const prefix = recordPrefix();
      for (let i = 0; i < ls.length; i++) {
        const name = ls.key(i);
        if (name !== null && name.startsWith(prefix)) out.push(ls.getItem(name));
      }
    } catch (e) {
      // the snapshot is still read below; its error is reported there
    }
    return out;
  }

  function forget(ids) {
    const ls = storage();
    if (ls !== null) forgetSteps(ls, recordPrefix(), ids);
  }

  function put(records) {
    const ls = storage();
    if (ls === null) {
      model.send({ type: "saved", ok: false, error: "localStorage is not available in this browser" });
      return;
    }
    try {
      for (const [id, value] of records) {
        const name = recordPrefix() + id;
        if (ls.getItem(name) === null) ls.setItem(name, value);
      }
      model.send({ type: "saved", ok: true, error: "" });
    } catch (e) {
      model.send({ type: "saved", ok: false, error: errorText(e), full: isQuotaError(e) });
    }
  }

  function sendStored(reason, value, load) {
    const ls = storage();
    let error = "";
    if (value === undefined) {
      value = null;
      if (ls === null) {
        error = "localStorage is not available in this browser (private mode or blocked storage)";
      } else {
        try {
          value = ls.getItem(key());
        } catch (e) {
          error = errorText(e);
        }
      }
    }
    lastSeen = value;
    if (typeof value === "string" && value.length > MAX_CHARS) {
      model.send({ type: "stored", value: null, reason, error: "", too_big: value.length });
    } else if (typeof value === "string" && value.length > PART_CHARS) {
      partsSent += 1;
      const id = `${Date.now()}-${partsSent}`;
      const count = Math.ceil(value.length / PART_CHARS);
      for (let index = 0; index < count; index++) {
        const data = value.slice(index * PART_CHARS, (index + 1) * PART_CHARS);
        model.send(withLoad({ type: "stored_part", id, index, count, data, reason }, load));
      }
    } else {
      model.send(withLoad({ type: "stored", value, reason, error }, load));
    }
  }

  function withLoad(msg, load) {
    if (load !== undefined) msg.load = load;
    return msg;
  }

  // The load handshake (see the top of this file): what this browser holds, again until the kernel answers.
  const loadId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  let answered = false;
  let tries = 0;
  let retry = null;
  let closed = false;

  function sendLoad() {
    retry = null;
    if (answered || closed) return;
    tries += 1;
    sendRecords("load", storedRecords(), loadId);
    sendStored("load", undefined, loadId);
    loaded = true;
    if (tries < LOAD_TRIES) {
      retry = setTimeout(sendLoad, Math.min(LOAD_RETRY_MS * 2 ** (tries - 1), LOAD_RETRY_MAX_MS));
    }
  }

  function write() {
    const value = model.get("value");
    if (!loaded || !value) return;
    const ls = storage();
    if (ls === null) {
      model.send({ type: "saved", ok: false, error: "localStorage is not available in this browser" });
      return;
    }
    try {
      const current = ls.getItem(key());
      if (current !== null && current !== lastSeen && current !== value) {
        // another writer (a quiz on this page, another tab) wrote a snapshot this kernel has not merged:
        // send it; the kernel merges it and sends the merged value, which is written then
        sendStored("other-writer", current);
        return;
      }
      if (current !== value) ls.setItem(key(), value);
      lastSeen = value;
      model.send({ type: "saved", ok: true, error: "" });
    } catch (e) {
      model.send({ type: "saved", ok: false, error: errorText(e), full: isQuotaError(e) });
    }
  }

  function onMessage(msg) {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "loaded") {
      if (msg.load === loadId) {
        answered = true;
        if (retry !== null) clearTimeout(retry);
        retry = null;
      }
    } else if (msg.type === "set_aside") {
      const ls = storage();
      try {
        // value null: keep aside what this browser holds under the key (too big to send to the kernel)
        if (ls !== null) ls.setItem(msg.name, msg.value === null ? ls.getItem(key()) : msg.value);
      } catch (e) {
        model.send({ type: "saved", ok: false, error: errorText(e) });
      }
    } else if (msg.type === "reload") {
      sendRecords("load", storedRecords());
      sendStored("load");
    } else if (msg.type === "forget" && Array.isArray(msg.ids)) {
      forget(msg.ids);
    } else if (msg.type === "write") {
      write();
    } else if (msg.type === "put" && Array.isArray(msg.records)) {
      put(msg.records);
    }
  }

  function onStorage(event) {
    if (typeof event.key === "string" && event.key.startsWith(recordPrefix()) && event.newValue !== null) {
      sendRecords("other-tab", [event.newValue]);
      return;
    }
    if (event.key === key() && event.newValue !== null && event.newValue !== model.get("value")) {
      sendStored("other-tab", event.newValue);
    }
  }

  model.on("change:value", write);
  model.on("msg:custom", onMessage);
  window.addEventListener("storage", onStorage);
  modelsReady(model).then(sendLoad);
  return () => {
    closed = true;
    if (retry !== null) clearTimeout(retry);
    model.off("change:value", write);
    model.off("msg:custom", onMessage);
    window.removeEventListener("storage", onStorage);
  };
}

function render({ model, el }) {
  // Nothing to see: the status line is drawn by the Python side. Keep a marker for tests.
  el.classList.add("musteach-browser-store");
  el.dataset.key = model.get("key");
}

export default { initialize, render };
