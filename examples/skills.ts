import { MCPClient, MCPSkillVerificationError } from 'agentwire';

// A server that offers skills (MCP Skills extension, SEP-2640); this one is the repository's test fixture.
const client = MCPClient.fromStdio(
  { command: process.execPath, args: ['test/fixtures/skills-server.mjs'] },
  { name: 'docs' },
);

await client.connect();
try {
  // skills/list: names, descriptions, every file with its digest and size. No file is read yet.
  for (const skill of await client.listSkills()) console.log(`${skill.name}: ${skill.description}`);

  // Loading reads SKILL.md, then each other file, and verifies every one against the listed entry.
  const skill = await client.loadSkill('pdf-processing');
  console.log(skill.files.map((file) => `${file.path} (${file.bytes.byteLength} bytes)`).join(', '));
  console.log(skill.body.trim().split('\n')[0]);
} catch (error) {
  // A file whose size, digest or frontmatter differs from the entry is never returned.
  if (error instanceof MCPSkillVerificationError) console.log(error.reason, error.file);
  else throw error;
} finally {
  await client.disconnect();
}
