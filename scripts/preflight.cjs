// @ts-check
// The run and test commands' first check: Node and Go are as new as the project needs (the
// versions package.json's engines and functions/go.mod name), else one sentence each saying
// what was found and where to get a newer one, before anything is installed or started.
//
//   node scripts/preflight.cjs TAG [ARGS...]   TAG (run, test) starts each sentence; exits 1
//                                              on a problem, 0 at once when ARGS hold -h or
//                                              --help (usage needs no toolchain)
//
// Plain CommonJS in old syntax on purpose: a Node too old for the other scripts, whose
// imports fail before any of their code runs, must get this far and say so. The wrappers
// (scripts/run, scripts/test) check that there is a node at all.
'use strict';
var childProcess = require('child_process');
var fs = require('fs');
var path = require('path');

var root = path.resolve(__dirname, '..');

var hints = {
  Node: 'install it from https://nodejs.org/en/download (or run `nvm install 20`)',
  Go: "install it from https://go.dev/dl/ (Debian's golang-go is older)",
};

/** Answers [major, minor, patch] of the first version in text ("v20.19.1", "go1.26.8",
 * "go version go1.26 linux/amd64", ">=20.19"), or null when it holds none.
 * @param {unknown} text
 * @returns {number[] | null} */
function parseVersion(text) {
  var m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(String(text));
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] || 0)] : null;
}

/** Whether version found (text) is at least version needed (text); false when found holds
 * no version.
 * @param {string} found
 * @param {string} needed */
function atLeast(found, needed) {
  var f = parseVersion(found);
  var n = parseVersion(needed);
  if (!f || !n) return false;
  for (var i = 0; i < 3; i++) {
    if (f[i] !== n[i]) return f[i] > n[i];
  }
  return true;
}

/** The versions the project needs: Node from package.json's engines (">=20.19"), Go from
 * functions/go.mod's go line.
 * @param {string} [dir] the repository (this one by default)
 * @returns {{ node: string, go: string }} */
function neededVersions(dir) {
  dir = dir || root;
  var engines = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).engines || {};
  var goLine = /^go\s+(\S+)\s*$/m.exec(fs.readFileSync(path.join(dir, 'functions', 'go.mod'), 'utf8'));
  return { node: String(engines.node || '').replace(/^>=\s*/, ''), go: goLine ? goLine[1] : '' };
}

/** Answers what `go version` says (with GOTOOLCHAIN=auto that is the toolchain go.mod makes
 * it switch to), "none on PATH" when there is no go, or the last line of its error (a
 * failed toolchain switch says why there).
 * @param {NodeJS.ProcessEnv} [env] */
function goVersion(env) {
  try {
    return childProcess.execFileSync('go', ['version'], { cwd: root, env: env || process.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (err) {
    if (err.code === 'ENOENT') return 'none on PATH';
    var said = String(err.stderr || err.message)
      .trim()
      .split('\n')
      .pop();
    return '`go version` failed: ' + said;
  }
}

/** One sentence per tool that is older than needed (or missing). found: { node, go } as
 * process.versions.node and `go version` give them.
 * @param {{ node: string, go: string }} found
 * @param {{ node: string, go: string }} needed
 * @returns {string[]} */
function toolchainProblems(found, needed) {
  var problems = [];
  /** @type {['Node' | 'Go', string, string][]} */
  var tools = [
    ['Node', found.node, needed.node],
    ['Go', found.go, needed.go],
  ];
  for (var i = 0; i < tools.length; i++) {
    var name = tools[i][0];
    var have = tools[i][1];
    var need = tools[i][2];
    if (atLeast(have, need)) continue;
    var shown = name === 'Go' ? (/go\d\S*/.exec(have) || [have])[0] : have;
    problems.push(name + ' ' + need + ' or newer is needed (found ' + shown + '): ' + hints[name]);
  }
  return problems;
}

module.exports = { atLeast: atLeast, goVersion: goVersion, neededVersions: neededVersions, parseVersion: parseVersion, toolchainProblems: toolchainProblems };

if (require.main === module) {
  var tag = process.argv[2] || 'preflight';
  var args = process.argv.slice(3);
  if (args.indexOf('-h') >= 0 || args.indexOf('--help') >= 0) process.exit(0);
  var problems = toolchainProblems({ node: process.versions.node, go: goVersion() }, neededVersions());
  for (var i = 0; i < problems.length; i++) console.error(tag + ': ' + problems[i]);
  process.exit(problems.length ? 1 : 0);
}
