// The Prisma schema engine compiled to WebAssembly and the databases it runs on (PGlite shadow
// databases, driver adapters) for the offline Prisma tooling (engine.mjs).

import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { REPO_ROOT } from './migrations.mjs';

// ---------------------------------------------------------------------------------------------
// The wasm schema engine
// ---------------------------------------------------------------------------------------------

let enginePromise;

/**
 * Loads @prisma/schema-engine-wasm the way the Prisma CLI itself does (wasm-bindgen "bundler"
 * target: instantiate the .wasm with the generated JS glue as its import object). Done by hand
 * because Node 20 cannot `import` a .wasm file without --experimental-wasm-modules.
 */
async function loadEngineClass() {
  enginePromise ??= (async () => {
    const glueUrl = import.meta.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const glue = await import(glueUrl);
    const wasmPath = path.join(path.dirname(fileURLToPath(glueUrl)), 'schema_engine_bg.wasm');
    const module = new WebAssembly.Module(await readFile(wasmPath));
    const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': glue });
    glue.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    return glue;
  })();
  return enginePromise;
}

// A Rust panic inside the engine reports its message through this global before trapping.
const panics = [];
globalThis.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (message) => panics.push(message) };

export async function engineVersion() {
  return (await loadEngineClass()).version();
}

/**
 * Wraps a SqlDriverAdapter so that `executeScript` runs the whole script in one round trip with
 * `runScript` and awaits it. pglite-prisma-adapter 0.7.2 does not await `PGlite.exec` there, so a
 * failing migration would surface as an unhandled rejection instead of an engine error.
 * Composition over the public adapter interface, not a patch of the library.
 */
export class ScriptAwareAdapter {
  constructor(inner, runScript) {
    this.inner = inner;
    this.runScript = runScript;
    this.provider = inner.provider;
    this.adapterName = inner.adapterName;
  }
  queryRaw(query) {
    return this.inner.queryRaw(query);
  }
  executeRaw(query) {
    return this.inner.executeRaw(query);
  }
  startTransaction(isolationLevel) {
    return this.inner.startTransaction(isolationLevel);
  }
  getConnectionInfo() {
    return this.inner.getConnectionInfo?.() ?? { supportsRelationJoins: true };
  }
  dispose() {
    return this.inner.dispose();
  }
  async executeScript(script) {
    try {
      await this.runScript(script);
    } catch (error) {
      // Lets the adapter turn a driver error into Prisma's DriverAdapterError shape.
      if (typeof this.inner.onError === 'function') this.inner.onError(error);
      throw error;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Databases
// ---------------------------------------------------------------------------------------------

/** CREATE EXTENSION names used by the migrations, so the PGlite shadow can preload them. */
export function extensionsUsed(migrations) {
  const names = new Set();
  for (const m of migrations) {
    for (const match of m.sql.matchAll(/create\s+extension\s+(?:if\s+not\s+exists\s+)?("?)([\w-]+)\1/gi)) {
      names.add(match[2].toLowerCase());
    }
  }
  names.delete('plpgsql'); // built in
  return [...names];
}

const debug = (message) => {
  if (process.env.PRISMA_TOOLS_DEBUG) process.stderr.write(`[tools/prisma] ${message}\n`);
};

/**
 * A fresh in-memory PGlite with the given contrib extensions available.
 * Starting PGlite runs initdb (~4 s of CPU); the pristine data directory is therefore cached once in
 * node_modules/.cache/quarry-prisma-tools and later instances load it (~1 s). Delete the directory
 * to rebuild it; it is keyed by the PGlite version.
 */
export async function createPGlite(extensionNames = []) {
  const { PGlite } = await import('@electric-sql/pglite');
  const extensions = {};
  for (const name of extensionNames) {
    const id = name.replace(/-/g, '_');
    let mod;
    try {
      mod = await import(`@electric-sql/pglite/contrib/${id}`);
    } catch {
      throw new Error(
        `Extension "${name}" is used by a migration but PGlite ships no such contrib module: migrations must run on PGlite (see docs/database.md).`,
      );
    }
    extensions[id] = mod[id] ?? Object.values(mod)[0];
  }
  const started = Date.now();
  const cacheDir = path.join(REPO_ROOT, 'node_modules', '.cache', 'quarry-prisma-tools');
  const cacheFile = path.join(cacheDir, `pglite-${pgliteVersion()}.tar`);
  if (existsSync(cacheFile)) {
    try {
      const db = await PGlite.create({ extensions, loadDataDir: new Blob([readFileSync(cacheFile)]) });
      debug(`PGlite loaded from ${path.relative(REPO_ROOT, cacheFile)} in ${Date.now() - started} ms`);
      return db;
    } catch (error) {
      debug(`PGlite cache unusable (${error.message}), rebuilding it`);
      rmSync(cacheFile, { force: true });
    }
  }
  const db = await PGlite.create({ extensions });
  debug(`PGlite initialised in ${Date.now() - started} ms`);
  try {
    const dump = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, dump);
    renameSync(tmp, cacheFile);
  } catch (error) {
    debug(`could not cache the PGlite data directory: ${error.message}`);
  }
  return db;
}

function pgliteVersion() {
  try {
    return JSON.parse(
      readFileSync(path.join(REPO_ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'),
    ).version;
  } catch {
    return 'unknown';
  }
}

/**
 * Driver adapter factory over in-memory PGlite.
 * - `separateShadow: false` (diff): the engine's main connection is only used for a version
 *   probe, so the first shadow database reuses the main instance.
 * - `separateShadow: true` (create-migration): the main database receives the migrations too, so
 *   the shadow database is a second instance.
 * Any further shadow database request gets a fresh instance.
 */
export class PGliteFactory {
  provider = 'postgres';
  adapterName = '@quarry/tools-prisma-pglite';
  #main;
  #spare;
  #opened = [];
  constructor(extensionNames, { separateShadow = false } = {}) {
    this.extensionNames = extensionNames;
    this.separateShadow = separateShadow;
  }
  async #open() {
    const db = await createPGlite(this.extensionNames);
    this.#opened.push(db);
    return db;
  }
  async #adapter(db) {
    const { PrismaPGlite } = await import('pglite-prisma-adapter');
    const inner = await new PrismaPGlite(db).connect();
    return new ScriptAwareAdapter(inner, (script) => db.exec(script));
  }
  async connect() {
    if (!this.#main) {
      this.#main = await this.#open();
      if (this.separateShadow) {
        this.#spare = await this.#open();
      } else {
        this.#spare = this.#main;
      }
    }
    return this.#adapter(this.#main);
  }
  async connectToShadowDb() {
    const db = this.#spare ?? (await this.#open());
    this.#spare = undefined;
    return this.#adapter(db);
  }
  async close() {
    await Promise.all(this.#opened.map((db) => db.close().catch(() => undefined)));
  }
}

/** Opens the engine on a driver adapter factory. Call `close()` when done. */
export async function openEngine(factory, schemaFiles) {
  const glue = await loadEngineClass();
  const { bindMigrationAwareSqlAdapterFactory } = await import('@prisma/driver-adapter-utils');
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  const verbose = /engine/.test(process.env.PRISMA_TOOLS_DEBUG ?? '');
  const log = (line) => verbose && process.stderr.write(`[schema-engine] ${line}\n`);
  const datamodels = schemaFiles?.length ? schemaFiles.map((f) => [f.path, f.content]) : undefined;
  let engine;
  const started = Date.now();
  try {
    engine = await glue.SchemaEngine.new({ datamodels }, log, bound);
    debug(`engine started: ${Date.now() - started} ms`);
  } catch (error) {
    throw explain(error, bound);
  }
  const call = async (method, input) => {
    const started = Date.now();
    try {
      return await engine[method](input);
    } catch (error) {
      throw explain(error, bound);
    } finally {
      debug(`engine.${method}: ${Date.now() - started} ms`);
    }
  };
  const close = async () => {
    try {
      engine.free();
    } finally {
      await factory.close();
    }
  };
  return { call, close };
}

/** Turns engine errors into readable ones (driver errors are kept in the adapter's registry). */
function explain(error, bound) {
  const registered = bound?.errorRegistry?.lookupError?.(error);
  const cause = registered?.error ?? registered;
  const panic = panics.length ? `\nEngine panic: ${panics.at(-1)}` : '';
  const raw = String(error?.message ?? error);
  const migration = /migration_name="([^"]+)"/.exec(raw)?.[1];
  let message = raw.replace(/\n\s+0: [\s\S]*$/, '').trim();
  if (migration && !message.includes(migration)) message = `Migration ${migration} failed: ${message}`;
  const detail = cause && cause !== error ? `\nCause: ${cause.message ?? JSON.stringify(cause)}` : '';
  const wrapped = new Error(`${message}${detail}${panic}`);
  wrapped.code = error?.code;
  return wrapped;
}
