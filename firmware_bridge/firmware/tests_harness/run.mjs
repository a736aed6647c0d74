// Runs MicroPython (the WebAssembly port) under Node.js for the kiosk's firmware tests.
//
// Usage: node run.mjs FIRMWARE_DIR
// Copies every .py file of FIRMWARE_DIR and of this folder into MicroPython's
// file system, installs the fake `machine` and `time` modules, then reads one
// JSON object per line on stdin ({"code": "..."}), runs the code, and answers
// one JSON line on stdout: {"ok": true|false, "out": "...printed...", "error": "traceback"}.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = path.dirname(fileURLToPath(import.meta.url));
const firmwareDir = path.resolve(process.argv[2] || path.join(here, ".."));
let printed = [];
// With linebuffer off, the port hands over output a byte (a number) or a chunk at a time.
const collect = (data) => {
  if (typeof data === "number") printed.push(data);
  else if (typeof data === "string") printed.push(...Buffer.from(data));
  else printed.push(...data);
};
const mp = await loadMicroPython({
  heapsize: 4 * 1024 * 1024,
  linebuffer: false,
  stdout: collect,
  stderr: collect,
});
mp.FS.mkdir("/fw");
for (const dir of [firmwareDir, here]) {
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith(".py") && name !== "main.py") {
      mp.FS.writeFile("/fw/" + name, fs.readFileSync(path.join(dir, name)));
    }
  }
}
// machine is a fake module; time keeps the real ticks_diff/ticks_add but reads a fake clock.
mp.runPython("import sys\nsys.path.insert(0, '/fw')\nimport fake_machine\nfake_machine.install()\n");

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const { code } = JSON.parse(line);
  printed = [];
  let reply;
  try {
    mp.runPython(code);
    reply = { ok: true, out: Buffer.from(printed).toString("utf8"), error: null };
  } catch (err) {
    reply = { ok: false, out: Buffer.from(printed).toString("utf8"), error: String(err.message || err) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
}
