import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linesMatching, REPO_ROOT, shippedMarkdownFiles } from './support/docs.js';

// docs/differences.md is the one place a deliberate deviation from the reference service is stated. Each row names
// the test that pins it; every other page links there instead of stating a difference of its own.

const PAGE = join('docs', 'differences.md');
const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

/** The table between the page's markers: one array of cells per row, header and rule left out. */
function rows(): string[][] {
  const text = read(PAGE);
  const table = text.slice(text.indexOf('<!-- differences:start -->'), text.indexOf('<!-- differences:end -->'));
  return table
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) => line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim()));
}

/** A sentence contrasting Railyard with the reference: what the differences page alone may say. */
const CONTRAST = /\b(?:unlike|differs? from|deviates? from|stricter than|looser than|lower than|higher than) the reference\b|\bthe reference(?: service)? (?:has|shows|documents|takes|accepts|states) no\b|\bthe reference (?:service )?accepts files\b/i;

describe('docs/differences.md', () => {
  it('has a row per difference, each with the reference, Railyard, a reason and an existing test', () => {
    const table = rows();
    expect(table.length).toBeGreaterThanOrEqual(7);
    for (const [behaviour, reference, railyard, why, pinnedBy] of table.map((row) => (row.length === 5 ? row : [row.join('|')]))) {
      expect([behaviour, reference, railyard, why].every((cell) => (cell ?? '').length > 0), behaviour).toBe(true);
      const tests = [...(pinnedBy ?? '').matchAll(/`([^`]+\.test\.ts)`/g)].map((match) => match[1]!);
      expect(tests.length, `${behaviour}: names no test`).toBeGreaterThan(0);
      for (const test of tests) expect(existsSync(join(REPO_ROOT, test)), `${behaviour}: ${test}`).toBe(true);
    }
  });

  it('is linked from the README and the docs index', () => {
    expect(read('README.md')).toContain('(docs/differences.md)');
    expect(read(join('docs', 'README.md'))).toContain('(differences.md)');
  });

  it('the contrast pattern catches a stated difference and spares a statement of sameness', () => {
    for (const stated of ['(the reference has no code for it)', 'The reference shows no operation', 'unlike the reference, it']) {
      expect(CONTRAST.test(stated), stated).toBe(true);
    }
    for (const same of ['as the reference ignores them', "the reference's own examples", 'the API reference']) {
      expect(CONTRAST.test(same), same).toBe(false);
    }
  });

  it('no other page states a difference without linking the table', () => {
    const stated = shippedMarkdownFiles()
      .filter((file) => file !== PAGE)
      .flatMap((file) => linesMatching(file, read(file), CONTRAST))
      .filter((line) => !line.includes('differences.md'));
    expect(stated).toEqual([]);
  });
});
