// @ts-check
// Cuts a release: builds the site (scripts/build.mjs) and publishes the export to a target
// in the order docs/build-and-release.md "Cutting a release" explains, or shows that plan,
// or makes an earlier published build current again.
//
//   scripts/release --target dir:PATH          build, then publish to a local folder
//                                              (PATH/site is what the local edge serves)
//                                              (the build renders only the pages whose data
//                                              changed since the target's current release when
//                                              that is safe, and says which kind and why)
//   … --full                                   build every page whatever changed
//   scripts/release --target aws               build, then publish to the AWS stack; reads
//                                              RELEASE_BUCKET, RELEASE_DISTRIBUTION_ID,
//                                              RELEASE_KVS_ARN (stack outputs SiteBucketName,
//                                              DistributionId, RouteRulesStoreArn), AWS_REGION
//   … --export DIR                             publish an existing export instead of building
//   … --allow-aws                              dir target: build from the DYNAMODB_ENDPOINT
//                                              given even when it is not loopback (or empty: AWS)
//   … --dry-run [--list]                       write nothing; print the plan (--list: every file).
//                                              Offline: no target, or aws without access, plans
//                                              against an empty bucket; a dir target against
//                                              what it holds. Uses site/out without --export.
//   scripts/release --target T --rollback ID   make published build ID current again
//   scripts/release --target T --list-builds   the published builds, newest first
//
// To aws, the export (and, before a build, the build's settings) must be safe to put in
// front of buyers, dry-run or not: an https SITE_URL that is not loopback, a Firebase
// project that is not a demo- one, no Auth emulator address, no placeholder in shop.json
// (release-checks.mjs). Every problem is named. A build for a dir target reads the
// catalogue from scripts/run's local store (http://127.0.0.1:$DYNAMODB_PORT, 8000) unless
// DYNAMODB_ENDPOINT says otherwise, and refuses one that is not loopback without --allow-aws.
//
// The wrapper scripts/release runs from the repository root, so relative paths are taken
// from there. Any error ends the run with one line and exit code 1.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { say } from './lib.mjs';
import { buildSite, exportDir as defaultExportDir, readShopConfig } from './build.mjs';
import { buildEnvProblems, exportScan, localStoreEnv, refuseIf } from './release-checks.mjs';
import { readExport } from './export-manifest.mjs';
import { awsConfig, count, describePlan, emptyState, openTarget, planRelease, planRollback, publishExport, rollback } from './publish.mjs';

const usage = `usage:
  scripts/release --target dir:PATH|aws [--export DIR]      build (unless --export) and publish
  scripts/release --target dir:PATH|aws --full              build every page, not only the changed ones
  scripts/release --target dir:PATH --allow-aws             build from a store that is not local
  scripts/release [--target dir:PATH|aws] --dry-run [--export DIR] [--list]
  scripts/release --target dir:PATH|aws --rollback BUILD_ID [--dry-run]
  scripts/release --target dir:PATH|aws --list-builds`;

const shown = (/** @type {string} */ dir) => path.relative(process.cwd(), dir) || '.';

/** The target's state for a dry-run: what it holds when it can be read, else an empty
 * bucket, saying why, so a dry-run works with no AWS access at all.
 * @param {string | undefined} spec
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ target: import('./target-state.mjs').Target | null, state: import('./target-state.mjs').TargetState }>} */
async function dryRunState(spec, env) {
  if (!spec) return { target: null, state: emptyState('no --target: planning against an empty bucket') };
  if (spec === 'aws') {
    try {
      awsConfig(env);
    } catch (err) {
      return { target: null, state: emptyState(`no AWS configuration (${err.message}): planning against an empty bucket`) };
    }
    const target = await openTarget(spec, env);
    try {
      return { target, state: await target.state() };
    } catch (err) {
      return { target, state: emptyState(`could not read the bucket (${err.message}): planning against an empty bucket`) };
    }
  }
  const target = await openTarget(spec, env);
  return { target, state: await target.state() };
}

/** Prints the builds published to the target, newest first.
 * @param {import('./target-state.mjs').Target} target */
async function listBuilds(target) {
  const state = await target.state();
  if (!state.releases.length) return console.log(`${target.name}: no published builds`);
  console.log(`${target.name}: ${count(state.releases.length, 'published build')}, newest first`);
  for (const r of state.releases) {
    const current = r.id === state.current?.id ? '  <- current' : '';
    console.log(`  ${r.id}  ${new Date(r.timestamp).toISOString()}  ${count(r.files, 'file').padStart(13)}${current}`);
  }
}

/** shop: functions/config/shop.json's contents; build: what builds the site (tests pass
 * their own of both).
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} [env]
 * @param {{ shop?: ReturnType<typeof readShopConfig>, build?: typeof buildSite }} [options] */
export async function main(argv, env = process.env, { shop = readShopConfig(), build = buildSite } = {}) {
  const { values: opt } = parseArgs({
    args: argv,
    options: {
      target: { type: 'string' },
      export: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      rollback: { type: 'string' },
      'list-builds': { type: 'boolean', default: false },
      'allow-aws': { type: 'boolean', default: false },
      full: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (opt.help) return console.log(usage);
  const dryRun = opt['dry-run'];
  if (opt.list && !dryRun) throw new Error('--list only goes with --dry-run');
  if (!opt.target && !dryRun) throw new Error('--target dir:PATH or --target aws is needed (or --dry-run to only see the plan)');
  if (opt.rollback !== undefined && opt['list-builds']) throw new Error('--rollback and --list-builds do not go together');
  if ((opt.rollback !== undefined || opt['list-builds']) && opt.export)
    throw new Error('--export only goes with a release, not with --rollback or --list-builds');
  if (opt.full && (opt.export || dryRun || opt.rollback !== undefined || opt['list-builds'])) throw new Error('--full only goes with a release that builds');
  if (opt['allow-aws'] && !opt.target?.startsWith('dir:')) throw new Error('--allow-aws only goes with a dir target (a build for aws reads AWS anyway)');

  if (opt['list-builds'] || opt.rollback !== undefined) {
    if (!opt.target) throw new Error(`${opt.rollback !== undefined ? '--rollback' : '--list-builds'} needs --target`);
    const target = await openTarget(opt.target, env);
    if (opt.rollback === undefined) return listBuilds(target); // --list-builds
    if (!dryRun) return void (await rollback({ target, id: opt.rollback }));
    const plan = await planRollback(target, opt.rollback);
    return console.log(describePlan(plan, { target: target.name, edge: !!target.edge, list: opt.list }));
  }

  if (dryRun) {
    const dir = opt.export ?? defaultExportDir;
    const scan = opt.target === 'aws' ? exportScan(shop) : null;
    const exp = await readExport(dir, { inspect: scan?.inspect });
    if (scan) refuseIf(scan.problems(exp), `publish ${shown(exp.dir)} to aws`);
    const { target, state } = await dryRunState(opt.target, env);
    const plan = planRelease(exp, state);
    if (!opt.export) plan.notes.unshift(`no --export: planning the existing export ${shown(dir)} (a dry-run never builds)`);
    const edge = target ? !!target.edge : opt.target === 'aws' ? true : undefined;
    const name = target?.name ?? (opt.target === 'aws' ? 'aws (not reachable)' : 'none');
    return console.log(`${describePlan(plan, { target: name, edge, list: opt.list, exportDir: shown(exp.dir) })}\n\nDry-run: nothing was written.`);
  }

  // Everything that can be refused (target spelling, AWS configuration) is refused here,
  // before the build runs or anything is written.
  const target = await openTarget(opt.target, env);
  const aws = opt.target === 'aws';
  let dir = opt.export;
  if (!dir) {
    let buildEnv = env;
    if (aws) {
      refuseIf(buildEnvProblems(env, shop), 'build a release for aws');
    } else {
      const local = localStoreEnv(env, { allowAws: opt['allow-aws'] });
      say('release', local.note);
      buildEnv = local.env;
    }
    // The build compares the snapshot with the target's current release to render only the
    // pages whose data changed; the release reads the state again before it publishes.
    const state = await target.state();
    await build({ env: buildEnv, shop, release: { current: state.current, unfinished: state.unfinished.length, full: opt.full } });
    dir = defaultExportDir;
  }
  const record = await publishExport({ exportDir: dir, target, scan: aws ? exportScan(shop) : undefined });
  say('release', `build ${record.id} is live on ${target.name}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(`release: ${String(err.message).replace(/\s*\n\s*/g, '; ')}`);
    process.exit(1);
  });
}
