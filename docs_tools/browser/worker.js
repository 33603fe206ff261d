// The Web Worker behind the site's Run and Check buttons (runner.js starts it on the first
// click). It loads Pyodide, NumPy and the minitorch_hooks wheel from the site itself, then
// page_runner.py, and answers each message with what Python gave. The page stays
// responsive while Python runs; a Stop ends this worker and starts a new one.
"use strict";

let ready = null; // the promise of the loaded runtime, made by the first message ("load")

function progress(key) {
  postMessage({ kind: "progress", key });
}

async function load(settings) {
  progress("loadingPython");
  importScripts(settings.runtime + "pyodide.js");
  const pyodide = await loadPyodide({ indexURL: settings.runtime });
  progress("loadingPackages");
  await pyodide.loadPackage(["numpy", settings.runtime + settings.wheel], {
    messageCallback: () => {},
  });
  const source = await (await fetch(settings.runner + "page_runner.py")).text();
  pyodide.FS.writeFile("/home/pyodide/page_runner.py", source);
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
  return pyodide.pyimport("page_runner");
}

function plain(proxy) {
  const value = proxy.toJs({ dict_converter: Object.fromEntries });
  proxy.destroy();
  return value;
}

onmessage = async (event) => {
  const { id, kind, settings, args } = event.data;
  if (ready === null) {
    ready = load(settings);
    ready.catch(() => {}); // reported to the request that waits for it
  }
  if (kind === "load") return; // started at once, so that a restart after Stop is ready sooner
  try {
    const runner = await ready;
    progress("running");
    let result;
    if (kind === "run") {
      result = plain(runner.run_blocks(JSON.stringify(args.blocks), args.fresh));
    } else if (kind === "check") {
      result = plain(runner.check_exercise(args.number, args.filename, args.code, args.hints));
    } else {
      throw new Error("unknown request " + kind);
    }
    postMessage({ kind: "result", id, result });
  } catch (error) {
    postMessage({ kind: "failure", id, message: String(error && error.message || error) });
  }
};
