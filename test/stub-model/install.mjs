// @ts-check
// Installs the test-only stub language model (this folder) into a VS Code server's extensions folder,
// the way a user installs an extension: as a .vsix through the server's own `--install-extension`. It
// cannot be a second development extension (a web payload loads only its LAST extensionDevelopmentPath),
// and the server installs a .vsix but not a folder. Also writes the user's chatLanguageModels.json, without
// which a signed-out Chat view offers no model in its picker. Run before the server starts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import { installExtension } from '../../scripts/vscodeServer.mjs';

const stubDir = path.dirname(fileURLToPath(import.meta.url));
export const STUB_VENDOR = 'test-stub';
export const STUB_MODEL_NAME = 'Test Stub';
const FILES = ['package.json', 'extension.js'];

/** A zip archive of `entries` ([name, Buffer][]) without compression: all a .vsix needs to install. */
function storedZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/**
 * Packs the stub into `<workDir>/test-stub-model.vsix`, installs it with the server at `install` into
 * `dirs.extensionsDir`, and writes `<dirs.userDataDir>/User/chatLanguageModels.json`.
 */
export function installStubModel(install, dirs, workDir) {
  const vsix = path.join(workDir, 'test-stub-model.vsix');
  fs.mkdirSync(workDir, { recursive: true });
  fs.writeFileSync(vsix, storedZip(FILES.map((f) => [`extension/${f}`, fs.readFileSync(path.join(stubDir, f))])));
  // The server's own --install-extension, as for the package under test.
  installExtension(install, dirs, vsix);
  const userDir = path.join(dirs.userDataDir, 'User');
  fs.mkdirSync(userDir, { recursive: true });
  fs.writeFileSync(
    path.join(userDir, 'chatLanguageModels.json'),
    `${JSON.stringify([{ vendor: STUB_VENDOR, name: STUB_MODEL_NAME }], null, 2)}\n`,
  );
}
