import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { envSchema } from '@quarry/platform/config';

import {
  copies,
  type Dockerfile,
  execForm,
  parseDockerfile,
  type Stage,
  substitute,
} from './support/dockerfile';
import { builtApps, configEnvNames, readRepoFile, REPO_ROOT, repoPathExists } from './support/repo';

/**
 * No Docker engine runs here, so these checks keep the images honest instead: every path the
 * Dockerfile copies exists, the build stage runs the Nx build whose outputs the later stages copy,
 * each runtime (`runtime-<name>` stage, chosen with `--build-arg RUNTIME=<name>`) has the packages its
 * apps need, and the one service stage on top starts the bundle webpack writes, non-root, with a
 * health check on a route the services serve.
 */
const DOCKERFILE = 'docker/Dockerfile';
/** Runtimes of docker/Dockerfile; the header line `# <runtime>-apps:` names the apps each one runs. */
const TARGETS = ['node', 'browser', 'ocr'] as const;
/** The stage every image ends in: the service on the runtime `RUNTIME` names. */
const SERVICE = 'service';
const apps = builtApps();
const appNames = new Set(apps.map((app) => app.name));
const envNames = new Set(configEnvNames());
/** Variables read by tools inside the image rather than by Quarry's config. */
const TOOL_ENV = new Set([
  'NX_DAEMON',
  'NX_NO_CLOUD',
  'NX_TUI',
  'PUPPETEER_SKIP_DOWNLOAD',
  'OMP_THREAD_LIMIT',
]);
/** Apps that are test harnesses, not services. */
const NOT_SHIPPED = new Set(['platform-e2e']);

const dockerignore = readRepoFile('.dockerignore')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

function ignored(path: string): boolean {
  const clean = path.replace(/^\.\//, '').replace(/\/$/, '');
  return dockerignore.some((pattern) => {
    const regex = new RegExp(
      `^${pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*\//g, '(.*/)?')
        .replace(/\*/g, '[^/]*')}(/.*)?$`,
    );
    return regex.test(clean);
  });
}

const list = (value: string | undefined) => (value ?? '').split(/\s+/).filter(Boolean);

const dockerfile: Dockerfile = parseDockerfile(readRepoFile(DOCKERFILE));
const stage = (name: string): Stage => {
  const found = dockerfile.stages.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${DOCKERFILE} has no stage "${name}"`);
  return found;
};
const appsOf = (target: string) => [
  ...list(dockerfile.header.get(`${target}-apps`)),
  ...list(dockerfile.header.get(`${target}-pending-apps`)),
];

describe(DOCKERFILE, () => {
  const declared = TARGETS.flatMap((target) => list(dockerfile.header.get(`${target}-apps`)));
  const pending = TARGETS.flatMap((target) => list(dockerfile.header.get(`${target}-pending-apps`)));

  it('is the only Dockerfile', () => {
    expect(readdirSync(join(REPO_ROOT, 'docker')).filter((name) => /Dockerfile/.test(name))).toEqual([
      'Dockerfile',
    ]);
  });

  it('names the apps of each target: existing ones under `<target>-apps:`, not-yet-landed ones under `<target>-pending-apps:`', () => {
    for (const target of TARGETS) expect(appsOf(target).length).toBeGreaterThan(0);
    for (const app of declared) expect(appNames).toContain(app);
    // A pending app that now exists must be promoted (and is then checked like the others).
    for (const app of pending)
      expect(appNames.has(app) ? `${app} exists: move it to "<target>-apps:"` : 'pending').toBe('pending');
  });

  it('builds on the Node.js 22 LTS image in every stage; the service stage starts from the chosen runtime', () => {
    expect(dockerfile.globalArgs.get('NODE_IMAGE')).toMatch(/^node:22(\.|-|$)/);
    for (const { name, from } of dockerfile.stages)
      expect(from).toBe(name === SERVICE ? 'runtime-${RUNTIME}' : '${NODE_IMAGE}');
    expect(TARGETS).toContain(dockerfile.globalArgs.get('RUNTIME'));
    for (const target of TARGETS) expect(stage(`runtime-${target}`).from).toBe('${NODE_IMAGE}');
    // The service stage is the last one, so a build without --target ends there.
    expect(dockerfile.stages[dockerfile.stages.length - 1].name).toBe(SERVICE);
  });

  it('declares ARG APP with the same default, a real (or pending) app, in every stage that uses it', () => {
    const defaults = new Set<string | undefined>();
    for (const current of dockerfile.stages) {
      const usesApp = current.instructions.some((instruction) => /\$\{?APP\b/.test(instruction.args));
      if (!usesApp) continue;
      expect(current.args.has('APP')).toBe(true);
      defaults.add(current.args.get('APP'));
    }
    expect(defaults.size).toBe(1);
    const [app] = [...defaults];
    expect([...declared, ...pending]).toContain(app);
  });

  it('copies from the build context only paths that exist and are not excluded by .dockerignore', () => {
    for (const current of dockerfile.stages) {
      for (const copy of copies(current).filter((candidate) => !candidate.from)) {
        for (const source of copy.sources) {
          if (source === '.') continue;
          expect({ source, exists: repoPathExists(source) }).toEqual({ source, exists: true });
          expect({ source, ignored: ignored(source) }).toEqual({ source, ignored: false });
        }
      }
    }
    // The sources the build needs are in the context.
    for (const needed of ['apps', 'libs', 'prisma', 'tools', 'package.json', 'tsconfig.base.json', 'nx.json'])
      expect(ignored(needed)).toBe(false);
  });

  it('runs the Nx build of $APP, whose outputs (bundle, pruned package.json and lockfile) the later stages copy', () => {
    const build = stage('build');
    const runs = build.instructions
      .filter((instruction) => instruction.keyword === 'RUN')
      .map((instruction) => instruction.args);
    expect(runs.join('\n')).toMatch(/npx nx build \$\{APP\}/);
    expect(runs.join('\n')).toMatch(/npm run --silent db:generate/);
    expect(JSON.parse(readRepoFile('package.json')).scripts['db:generate']).toBeDefined();
    for (const app of [...declared].map((name) => apps.find((candidate) => candidate.name === name))) {
      if (!app) continue;
      expect(app.generatesPackageJson).toBe(true);
      const fromBuild = dockerfile.stages.flatMap((current) =>
        copies(current).filter((copy) => copy.from === 'build'),
      );
      expect(fromBuild.length).toBeGreaterThan(0);
      for (const copy of fromBuild) {
        for (const source of copy.sources) {
          const resolved = substitute(source, { APP: app.name });
          expect(resolved.startsWith(`${build.workdir}/${app.outputDir}/`)).toBe(true);
          const inOutput = resolved.slice(`${build.workdir}/${app.outputDir}/`.length);
          expect(['', 'package.json', 'package-lock.json']).toContain(inOutput);
        }
      }
    }
  });

  it('installs production dependencies only, from the pruned package.json', () => {
    const deps = stage('deps');
    const run = deps.instructions
      .filter((instruction) => instruction.keyword === 'RUN')
      .map((instruction) => instruction.args)
      .join('\n');
    expect(run).toMatch(/npm (ci|install) --omit=dev/);
    expect(copies(deps).every((copy) => copy.from === 'build')).toBe(true);
    expect(copies(stage(SERVICE)).find((copy) => copy.from === 'deps')?.sources).toEqual([
      `${deps.workdir}/node_modules`,
    ]);
  });

  it.each(TARGETS)(
    'the service on runtime %s starts the bundle webpack writes, as a non-root user, with a health check on /livez',
    (target) => {
      const runtime = stage(SERVICE);
      const entrypoint = runtime.instructions.find(
        (instruction) => instruction.keyword === 'ENTRYPOINT' || instruction.keyword === 'CMD',
      );
      expect(entrypoint).toBeDefined();
      const command = execForm(entrypoint?.args ?? '[]');
      expect(command).toContain('node');
      for (const name of list(dockerfile.header.get(`${target}-apps`)))
        expect(command[command.length - 1]).toBe(apps.find((app) => app.name === name)?.mainFile);
      expect(runtime.workdir).toBe('/app');
      const bundleCopy = copies(runtime).find((copy) => copy.from === 'build');
      expect(bundleCopy?.destination).toBe('./');

      const users = runtime.instructions
        .filter((instruction) => instruction.keyword === 'USER')
        .map((instruction) => instruction.args.trim());
      expect(users.length).toBeGreaterThan(0);
      expect(['root', '0', '0:0']).not.toContain(users[users.length - 1]);

      const healthcheck = runtime.instructions.find((instruction) => instruction.keyword === 'HEALTHCHECK');
      expect(healthcheck?.args).toMatch(/\/livez/);
      expect(readRepoFile('libs/platform/runtime/src/lib/health.controller.ts')).toMatch(/@Get\('livez'\)/);
      const exposed = runtime.instructions
        .find((instruction) => instruction.keyword === 'EXPOSE')
        ?.args.trim();
      expect(exposed).toBe(runtime.env.get('PORT'));
    },
  );

  it('sets only configuration variables the config schema knows (or tool variables)', () => {
    for (const current of dockerfile.stages) {
      for (const name of current.env.keys())
        expect({ name, known: envNames.has(name) || TOOL_ENV.has(name) }).toEqual({ name, known: true });
    }
  });
});

describe('docker/ as a whole', () => {
  it('gives every shipped app an image', () => {
    const covered = new Set(TARGETS.flatMap(appsOf));
    for (const app of apps.filter((candidate) => !NOT_SHIPPED.has(candidate.name)))
      expect({ app: app.name, covered: covered.has(app.name) }).toEqual({ app: app.name, covered: true });
  });

  it('ships the web console inside the gateway and one-process bundles (served under /console)', () => {
    expect(JSON.parse(readRepoFile('apps/console/project.json')).targets.build.outputs).toEqual([
      '{workspaceRoot}/dist/apps/console',
    ]);
    for (const app of ['gateway', 'standalone']) {
      expect(JSON.parse(readRepoFile(`apps/${app}/project.json`)).implicitDependencies).toContain('console');
      expect(readRepoFile(`apps/${app}/webpack.config.js`)).toMatch(/console: true/);
    }
    expect(readRepoFile('tools/webpack/node-app.webpack.cjs')).toMatch(
      /\{ input: 'dist\/apps\/console', glob: '\*\*\/\*', output: 'console' \}/,
    );
    expect(readRepoFile('libs/api/src/lib/console/console-assets.ts')).toContain(
      "join(__dirname, 'console')",
    );
  });

  it('installs Chromium where the scrape worker runs, at the path the config expects', () => {
    const runtime = stage('runtime-browser');
    expect(appsOf('browser')).toContain('scrape-worker');
    const install = runtime.instructions
      .filter((instruction) => instruction.keyword === 'RUN')
      .map((instruction) => instruction.args)
      .join('\n');
    expect(install).toMatch(/apt-get install[^&]*\bchromium\b/);
    expect(install).toMatch(/fonts-noto-cjk/);
    expect(runtime.env.get('CHROMIUM_PATH')).toBe('/usr/bin/chromium');
    expect(readRepoFile('libs/platform/config/src/lib/app-config.ts')).toContain("'/usr/bin/chromium'");
  });

  it('installs Tesseract with language data, Poppler and Ghostscript where documents are parsed', () => {
    const runtime = stage('runtime-ocr');
    expect(appsOf('ocr')).toContain('doc-parser');
    const install = runtime.instructions
      .filter((instruction) => instruction.keyword === 'RUN')
      .map((instruction) => instruction.args)
      .join('\n');
    expect(install).toMatch(/apt-get install[^&]*\btesseract-ocr\b/);
    expect(runtime.args.get('OCR_PACKAGES')).toMatch(/tesseract-ocr-eng/);
    expect(install).toMatch(/apt-get install[^&]*\bpoppler-utils\b/);
    // Damaged (e.g. truncated) PDFs are rewritten by Ghostscript before they are given up.
    expect(install).toMatch(/apt-get install[^&]*\bghostscript\b/);
    // LibreOffice stays optional (legacy Office formats), behind a build argument.
    expect(runtime.args.get('WITH_LIBREOFFICE')).toBe('false');
    expect(install).toMatch(/WITH_LIBREOFFICE[\s\S]*libreoffice-writer/);
    // The binaries those packages put on PATH are the config's defaults, so the image needs no *_PATH settings.
    const { TESSERACT_PATH, PDFTOPPM_PATH, GHOSTSCRIPT_PATH, SOFFICE_PATH } = envSchema.shape;
    expect(
      [TESSERACT_PATH, PDFTOPPM_PATH, GHOSTSCRIPT_PATH, SOFFICE_PATH].map((setting) =>
        setting.parse(undefined),
      ),
    ).toEqual(['tesseract', 'pdftoppm', 'gs', 'soffice']);
  });
});
