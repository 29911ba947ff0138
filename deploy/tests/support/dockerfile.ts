/** A small Dockerfile reader: enough structure (stages, args, env, copies) to check references. */
export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  name?: string;
  from: string;
  instructions: Instruction[];
  args: Map<string, string | undefined>;
  env: Map<string, string>;
  workdir?: string;
}

export interface Dockerfile {
  /** `ARG`s before the first FROM. */
  globalArgs: Map<string, string | undefined>;
  stages: Stage[];
  /** Header comment lines (`# key: value`). */
  header: Map<string, string>;
}

export function parseDockerfile(text: string): Dockerfile {
  const header = new Map<string, string>();
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  let pending = '';
  let startLine = 0;
  lines.forEach((raw, index) => {
    const line = raw.trimEnd();
    if (!pending && /^\s*#/.test(line)) {
      const meta = /^#\s*([a-z-]+):\s*(.*)$/.exec(line.trim());
      if (meta && instructions.length === 0) header.set(meta[1], meta[2].trim());
      return;
    }
    if (!pending && !line.trim()) return;
    if (!pending) startLine = index + 1;
    pending += (pending ? ' ' : '') + line.replace(/\\$/, '').trim();
    if (line.endsWith('\\')) return;
    const match = /^(\w+)\s+(.*)$/.exec(pending);
    if (!match) throw new Error(`line ${startLine}: cannot parse "${pending}"`);
    instructions.push({ keyword: match[1].toUpperCase(), args: match[2], line: startLine });
    pending = '';
  });
  const globalArgs = new Map<string, string | undefined>();
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [from, , name] = instruction.args.split(/\s+/);
      stages.push({ name, from, instructions: [], args: new Map(), env: new Map() });
      continue;
    }
    const stage = stages[stages.length - 1];
    if (!stage) {
      if (instruction.keyword === 'ARG') addArg(globalArgs, instruction.args);
      continue;
    }
    stage.instructions.push(instruction);
    if (instruction.keyword === 'ARG') addArg(stage.args, instruction.args);
    if (instruction.keyword === 'WORKDIR') stage.workdir = instruction.args.trim();
    if (instruction.keyword === 'ENV')
      for (const [key, value] of keyValues(instruction.args)) stage.env.set(key, value);
  }
  return { globalArgs, stages, header };
}

function addArg(target: Map<string, string | undefined>, args: string): void {
  const [name, ...rest] = args.split('=');
  target.set(name.trim(), rest.length ? rest.join('=').replace(/^"|"$/g, '') : undefined);
}

function keyValues(args: string): [string, string][] {
  return [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)].map((match) => [
    match[1],
    match[2].replace(/^"|"$/g, ''),
  ]);
}

export interface Copy {
  from?: string;
  sources: string[];
  destination: string;
  line: number;
}

/** COPY instructions of a stage, with `--from` and the other flags separated from the paths. */
export function copies(stage: Stage): Copy[] {
  return stage.instructions
    .filter((instruction) => instruction.keyword === 'COPY')
    .map((instruction) => {
      const words = instruction.args.split(/\s+/);
      const flags = words.filter((word) => word.startsWith('--'));
      const paths = words.filter((word) => !word.startsWith('--'));
      const from = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length);
      return {
        from,
        sources: paths.slice(0, -1),
        destination: paths[paths.length - 1],
        line: instruction.line,
      };
    });
}

/** Replaces `${NAME}` / `$NAME` with the given values. */
export function substitute(text: string, values: Record<string, string>): string {
  return text.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (whole, braced: string | undefined, bare: string | undefined) => values[braced ?? bare ?? ''] ?? whole,
  );
}

/** The command of an exec-form ENTRYPOINT/CMD/HEALTHCHECK (`["node", "main.js"]`). */
export function execForm(args: string): string[] {
  const start = args.indexOf('[');
  return JSON.parse(args.slice(start)) as string[];
}
