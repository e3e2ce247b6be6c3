#!/usr/bin/env node
// Fails when a tracked file refers to a path outside the repository (e.g. `../shared/vectors`): a user clones only the
// repo, so such a reference works on a developer's machine and breaks everywhere else. Every relative path (`../…`) in
// a tracked text file is resolved from that file's folder and must stay inside the repo root.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
const BINARY = /\.(png|jpe?g|gif|pdf|ico|woff2?|gz|zip)$/i;
// A run of `../` segments and the path after it, as written in code, config, scripts and Markdown links.
const RELATIVE_PATH = /(?:^|[^\w.])((?:\.\.\/)+[\w@.\-/${}]*)/g;

const problems = [];
for (const file of files) {
  if (BINARY.test(file) || file === 'pnpm-lock.yaml') continue;
  const text = readFileSync(resolve(root, file), 'utf8');
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    for (const match of line.matchAll(RELATIVE_PATH)) {
      const target = resolve(root, dirname(file), match[1]);
      const inside = relative(root, target);
      if (inside === '..' || inside.startsWith(`..${sep}`)) {
        problems.push(`${file}:${index + 1}: ${match[1]} resolves outside the repository`);
      }
    }
  });
}

if (problems.length > 0) {
  console.error(`These tracked files reach outside the repository; copy what they need into it instead:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`standalone: ${files.length} tracked files, none refers to a path outside the repository`);
