#!/usr/bin/env node
// mcptui's npm launcher. npm installs exactly one of the optional
// dependencies @mcptui/<platform>-<arch> (each declares its os and cpu);
// this runs the binary it holds with the same arguments and standard
// streams, passes on the signals a host or a shell sends, and exits as the
// binary exits. Nothing is downloaded at run time.
'use strict';

const { spawn } = require('node:child_process');
const path = require('node:path');

const platformPackage = `@mcptui/${process.platform}-${process.arch}`;
const executable = process.platform === 'win32' ? 'mcptui.exe' : 'mcptui';

let binary;
try {
  binary = path.join(path.dirname(require.resolve(`${platformPackage}/package.json`)), 'bin', executable);
} catch {
  process.stderr.write(
    `mcptui: npm installed no binary for ${process.platform}-${process.arch} (the package ${platformPackage}); ` +
      'install from source instead: go install github.com/mcptui/mcptui@latest\n',
  );
  process.exit(1);
}

const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: false });
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of forwarded) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (err) => {
  process.stderr.write(`mcptui: cannot run ${binary}: ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so the caller sees what the binary saw.
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
