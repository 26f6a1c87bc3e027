/**
 * `agentwire skills list|show` through the built CLI, against a real server of the MCP Skills extension
 * (test/fixtures/skills-server.mjs, @modelcontextprotocol/server 2.4.0).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FORMS_MD, PDF_SKILL_MD } from '../fixtures/skills-files.mjs';
import { ROOT } from '../helpers.js';
import { ensureBuilt, runBuilt } from './built-cli.js';

beforeAll(ensureBuilt, 120_000);

const SERVER = path.join(ROOT, 'test/fixtures/skills-server.mjs');
const stdio = (...flags: string[]) => ['--stdio', [process.execPath, SERVER, ...flags].join(' ')];
const digest = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

describe('agentwire skills', () => {
  it('lists the skills: name, description, file count', async () => {
    expect(await runBuilt(['skills', 'list', ...stdio()])).toEqual({
      code: 0,
      stdout:
        'pdf-processing  Extract, fill, and assemble PDF documents  (2 files)\n' +
        'release-notes   Write release notes from a list of merged changes  (1 file)\n',
      stderr: '',
    });
  });

  it('lists them as JSON', async () => {
    const { code, stdout } = await runBuilt(['skills', 'list', '--json', ...stdio()]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)[0]).toEqual({
      server: 'skills-server',
      name: 'pdf-processing',
      description: 'Extract, fill, and assemble PDF documents',
      uri: 'skill://pdf-processing/SKILL.md',
      frontmatter: {
        name: 'pdf-processing',
        description: 'Extract, fill, and assemble PDF documents',
        metadata: { version: '1' },
      },
      files: [
        {
          uri: 'skill://pdf-processing/SKILL.md',
          path: 'SKILL.md',
          digest: digest(PDF_SKILL_MD),
          size: Buffer.byteLength(PDF_SKILL_MD),
        },
        {
          uri: 'skill://pdf-processing/references/FORMS.md',
          path: 'references/FORMS.md',
          digest: digest(FORMS_MD),
          size: Buffer.byteLength(FORMS_MD),
        },
      ],
    });
  });

  it("shows a skill's SKILL.md, and one of its files as JSON", async () => {
    expect(await runBuilt(['skills', 'show', 'pdf-processing', ...stdio()])).toEqual({
      code: 0,
      stdout: PDF_SKILL_MD,
      stderr: '',
    });
    const { code, stdout } = await runBuilt([
      'skills',
      'show',
      'pdf-processing',
      'references/FORMS.md',
      '--json',
      ...stdio(),
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).file).toEqual({
      uri: 'skill://pdf-processing/references/FORMS.md',
      path: 'references/FORMS.md',
      mimeType: 'text/markdown',
      text: FORMS_MD,
      verified: true,
    });
  });

  it('refuses a file that fails verification: nothing on stdout, the check on stderr, exit 1', async () => {
    const served = PDF_SKILL_MD.replace('Fill forms', 'Send forms');
    expect(await runBuilt(['skills', 'show', 'pdf-processing', ...stdio('--tamper=digest')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: skill "pdf-processing" of server "skills-server": skill://pdf-processing/SKILL.md has digest ${digest(served)}; the skill entry lists ${digest(PDF_SKILL_MD)}\n`,
    });
  });

  it('names a skill the server does not offer, exit 1', async () => {
    expect(await runBuilt(['skills', 'show', 'nope', ...stdio()])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: server "skills-server" offers no skill "nope"\n',
    });
  });
});
