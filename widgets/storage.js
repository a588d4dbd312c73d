// musteach BrowserStore: keeps a JSON string in this browser's localStorage, for the kernel.
//
// Browser -> kernel (custom messages):
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

// At most 6 bytes a character once escaped in JSON: 32,000 characters stay under 200 KB a message.
const PART_CHARS = 32000;
const MAX_CHARS = 5000000;
let partsSent = 0;

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

function initialize({ model }) {
  const key = () => model.get("key");
  let loaded = false;

  function sendStored(reason, value) {
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
    if (typeof value === "string" && value.length > MAX_CHARS) {
      model.send({ type: "stored", value: null, reason, error: "", too_big: value.length });
    } else if (typeof value === "string" && value.length > PART_CHARS) {
      partsSent += 1;
      const id = `${Date.now()}-${partsSent}`;
      const count = Math.ceil(value.length / PART_CHARS);
      for (let index = 0; index < count; index++) {
        const data = value.slice(index * PART_CHARS, (index + 1) * PART_CHARS);
        model.send({ type: "stored_part", id, index, count, data, reason });
      }
    } else {
      model.send({ type: "stored", value, reason, error });
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
      if (ls.getItem(key()) !== value) ls.setItem(key(), value);
      model.send({ type: "saved", ok: true, error: "" });
    } catch (e) {
      model.send({ type: "saved", ok: false, error: errorText(e), full: isQuotaError(e) });
    }
  }

  function onMessage(msg) {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "set_aside") {
      const ls = storage();
      try {
        // value null: keep aside what this browser holds under the key (too big to send to the kernel)
        if (ls !== null) ls.setItem(msg.name, msg.value === null ? ls.getItem(key()) : msg.value);
      } catch (e) {
        model.send({ type: "saved", ok: false, error: errorText(e) });
      }
    } else if (msg.type === "reload") {
      sendStored("load");
    }
  }

  function onStorage(event) {
    if (event.key === key() && event.newValue !== null && event.newValue !== model.get("value")) {
      sendStored("other-tab", event.newValue);
    }
  }

  model.on("change:value", write);
  model.on("msg:custom", onMessage);
  window.addEventListener("storage", onStorage);
  sendStored("load");
  loaded = true;
  return () => {
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
