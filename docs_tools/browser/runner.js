// Run and Check buttons: the course's examples and exercises run in the reader's browser.
//
// docs_tools/hooks.py adds this script, and a JSON config (#mth-run-config: the page's
// strings in its language, the wheel's name, the exercise of an exercise page), to every
// page when the site was built with the runtime (docs_tools/run_in_browser.py).
//
// * Every Python block followed by an output block gets Run, Reset and Stop. Run runs the
//   page's earlier blocks (unless Python already holds exactly them) and the block, and
//   shows what it printed under the page's output, marked the same, differing, or an
//   error: the element gets data-run-status="same" | "differs" | "error". The block is
//   editable; Reset restores it. A hook trace the block binds to a name is drawn below.
// * An exercise page gets its starter in an editor, kept in localStorage, with Check
//   (runs `minitorch-hooks check N` on it in the browser; data-run-status="passed" |
//   "failed" on the exercise's element), Reset, Download and Stop.
// Nothing loads before the first Run or Check. Python then runs in a Web Worker
// (worker.js), so the page never freezes; Stop ends the worker and starts a new one.
(() => {
  "use strict";
  const configElement = document.getElementById("mth-run-config");
  if (!configElement) return;
  const config = JSON.parse(configElement.textContent);
  const text = config.strings;
  const here = document.currentScript.src;
  const settings = {
    runtime: new URL("../pyodide/", here).href,
    runner: new URL("./", here).href,
    wheel: config.wheel,
  };

  function say(key, values = {}) {
    return text[key].replace(/\{(\w+)\}/g, (_, name) => values[name]);
  }

  // A paragraph of text in which `x` is code.
  function paragraph(line) {
    const made = document.createElement("p");
    line.split("`").forEach((part, index) => {
      if (index % 2 === 0) made.append(part);
      else made.append(Object.assign(document.createElement("code"), { textContent: part }));
    });
    return made;
  }

  class Stopped extends Error {}

  // The worker, started on the first request, and again after a Stop.
  const python = {
    worker: null,
    pending: new Map(),
    next: 0,
    onprogress: () => {},
    start() {
      this.worker = new Worker(settings.runner + "worker.js");
      this.worker.onmessage = (event) => {
        const message = event.data;
        if (message.kind === "progress") {
          this.onprogress(message.key);
          return;
        }
        const waiting = this.pending.get(message.id);
        if (!waiting) return;
        this.pending.delete(message.id);
        if (message.kind === "result") waiting.resolve(message.result);
        else waiting.reject(new Error(message.message));
      };
      this.worker.onerror = (event) => this.failAll(new Error(event.message));
      this.worker.postMessage({ id: 0, kind: "load", settings });
    },
    call(kind, args, onprogress) {
      if (!this.worker) this.start();
      this.onprogress = onprogress;
      const id = ++this.next;
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.worker.postMessage({ id, kind, settings, args });
      });
    },
    failAll(error) {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    },
    stop() {
      if (this.worker) this.worker.terminate();
      this.failAll(new Stopped());
      this.start();
    },
  };

  // One request at a time: while one runs, the other buttons wait, and Stop shows.
  const controls = new Set();
  let running = null;
  function setBusy(owner) {
    running = owner;
    for (const control of controls) control.update(owner);
  }

  async function request(owner, kind, args, progressLine) {
    if (location.protocol === "file:") throw new Error(say("fileProtocol"));
    const started = performance.now();
    setBusy(owner);
    try {
      return await python.call(kind, args, (key) => {
        progressLine.textContent = say(key);
      });
    } finally {
      setBusy(null);
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      progressLine.textContent = say("done", { seconds });
    }
  }

  function button(label, action, onclick) {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = label;
    element.dataset.action = action;
    element.addEventListener("click", onclick);
    return element;
  }

  function element(tag, className, content) {
    const made = document.createElement(tag);
    made.className = className;
    if (content !== undefined) made.textContent = content;
    return made;
  }

  // ---- the page's code blocks ----
  const content = document.querySelector(".md-content__inner") || document.body;
  const blocks = [...content.querySelectorAll("div.language-python")];
  const sourceOf = (block) => block.querySelector("code").textContent;
  const expectedOf = (block) => {
    const next = block.nextElementSibling;
    return next && next.matches("div.language-output") ? next.querySelector("code").textContent
      : null;
  };
  let ran = []; // the sources Python's namespace has run, in order, since a fresh start
  const marks = { same: "✓", differs: "≠", error: "✗" };

  function makeRunnable(block, index) {
    const code = block.querySelector("code");
    const original = code.innerHTML;
    code.contentEditable = "plaintext-only";
    code.spellcheck = false;
    block.setAttribute("data-runnable", "");
    const bar = element("div", "mth-run__bar");
    const progressLine = element("span", "mth-run__progress");
    const result = element("div", "mth-run__result");
    result.hidden = true;
    block.nextElementSibling.after(result);

    async function run() {
      const wanted = blocks.slice(0, index + 1).map((b) => ({
        source: sourceOf(b), expected: expectedOf(b),
      }));
      const holds = ran.length === index && ran.every((s, k) => s === wanted[k].source);
      block.removeAttribute("data-run-status");
      result.hidden = true;
      let outcome;
      try {
        outcome = await request(block, "run", { blocks: holds ? [wanted[index]] : wanted,
                                                fresh: !holds }, progressLine);
        ran = outcome.earlier === undefined ? wanted.map((b) => b.source) : [];
      } catch (error) {
        ran = [];
        outcome = { status: "error", svgs: [],
                    printed: error instanceof Stopped ? say("stopped") : error.message };
      }
      show(outcome);
    }

    function show(outcome) {
      result.replaceChildren();
      let label = say(outcome.status);
      if (outcome.earlier !== undefined) label = say("earlierFailed");
      result.append(element("div", `mth-run__mark mth-run__mark--${outcome.status}`,
                            `${marks[outcome.status]} ${label}`));
      if (outcome.printed) result.append(element("pre", "mth-run__output", outcome.printed));
      for (const svg of outcome.svgs) {
        const drawing = element("div", "mth-run__drawing");
        drawing.innerHTML = svg;
        result.append(drawing);
      }
      result.hidden = false;
      block.setAttribute("data-run-status", outcome.status);
    }

    const runButton = button(text.run, "run", run);
    const resetButton = button(text.reset, "reset", () => {
      code.innerHTML = original;
      result.hidden = true;
      block.removeAttribute("data-run-status");
    });
    const stopButton = button(text.stop, "stop", () => python.stop());
    bar.append(runButton, resetButton, stopButton, progressLine);
    block.append(bar);
    controls.add({
      update(owner) {
        runButton.disabled = owner !== null;
        stopButton.hidden = owner !== block;
      },
    });
    stopButton.hidden = true;
  }

  if (config.blocks) {
    blocks.forEach((block, index) => {
      if (expectedOf(block) !== null) makeRunnable(block, index);
    });
  }

  // ---- an exercise page ----
  function makeExercise(exercise) {
    const key = `minitorch_hooks/exercise/${exercise.filename}`;
    const storage = {
      get(name, fallback) {
        try { return localStorage.getItem(`${key}/${name}`) ?? fallback; } catch { return fallback; }
      },
      set(name, value) {
        try { localStorage.setItem(`${key}/${name}`, value); } catch { /* storage is off */ }
      },
      clear(name) {
        try { localStorage.removeItem(`${key}/${name}`); } catch { /* storage is off */ }
      },
    };
    const section = element("section", "mth-exercise");
    section.dataset.exercise = exercise.number;
    const heading = element("h2", "", say("exerciseHeading"));
    heading.id = "mth-try-it";
    const intro = paragraph(say("exerciseIntro", { number: exercise.number }));
    const editor = element("textarea", "mth-exercise__editor");
    editor.value = storage.get("code", exercise.starter);
    editor.spellcheck = false;
    editor.wrap = "off"; // Python's lines are not wrapped: the editor scrolls sideways
    editor.rows = 24;
    editor.setAttribute("aria-label", exercise.filename);
    editor.addEventListener("input", () => storage.set("code", editor.value));
    editor.addEventListener("keydown", (event) => {
      if (event.key !== "Tab" || event.shiftKey) return; // Shift+Tab leaves the editor
      event.preventDefault();
      editor.setRangeText("    ", editor.selectionStart, editor.selectionEnd, "end");
      storage.set("code", editor.value);
    });
    const bar = element("div", "mth-run__bar");
    const progressLine = element("span", "mth-run__progress");
    const report = element("pre", "mth-exercise__report");
    report.hidden = true;

    async function check() {
      section.removeAttribute("data-run-status");
      let outcome;
      try {
        outcome = await request(section, "check", {
          number: exercise.number, filename: exercise.filename, code: editor.value,
          hints: storage.get("hints", "{}"),
        }, progressLine);
        storage.set("hints", outcome.hints);
      } catch (error) {
        outcome = { passed: false,
                    report: error instanceof Stopped ? say("stopped") : error.message };
      }
      ran = []; // the check started Python's namespace afresh
      report.textContent = outcome.report;
      report.hidden = false;
      section.setAttribute("data-run-status", outcome.passed ? "passed" : "failed");
    }

    const checkButton = button(text.check, "check", check);
    const resetButton = button(text.reset, "reset", () => {
      editor.value = exercise.starter;
      storage.clear("code");
      section.removeAttribute("data-run-status");
      report.hidden = true;
    });
    const downloadButton = button(text.download, "download", () => {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([editor.value], { type: "text/x-python" }));
      link.download = exercise.filename;
      link.click();
      URL.revokeObjectURL(link.href);
    });
    const stopButton = button(text.stop, "stop", () => python.stop());
    stopButton.hidden = true;
    bar.append(checkButton, resetButton, downloadButton, stopButton, progressLine);
    section.append(heading, intro, editor, bar, report);
    content.append(section);
    // A way down to it from the tip at the top, where the commands are.
    const jump = document.createElement("p");
    jump.append(Object.assign(document.createElement("a"), {
      href: "#mth-try-it", textContent: say("exerciseJump"),
    }));
    const tip = content.querySelector(".admonition.tip");
    if (tip) tip.after(jump);
    controls.add({
      update(owner) {
        checkButton.disabled = owner !== null;
        stopButton.hidden = owner !== section;
      },
    });
  }

  if (config.exercise) makeExercise(config.exercise);
})();
