// What the report says about the run: machine, load, Node, package versions, date, command.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { versionOf } from './clients.mjs';

const PACKAGES = [
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/sdk',
  '@ai-sdk/mcp',
  '@langchain/mcp-adapters',
  '@langchain/core',
  '@langchain/langgraph',
  '@openai/agents-core',
  '@modelcontextprotocol/server-everything',
  'undici',
];

function gitHead() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { encoding: 'utf8' }).trim();
    return dirty === '' ? head : `${head} + uncommitted changes in src/`;
  } catch {
    return 'unknown';
  }
}

/** A description of this run. */
export function runMeta(command) {
  const build = process.env.AGENTWIRE_DIST ?? 'dist/';
  const versions = { agentwire: `${versionOf('agentwire')} (${build}, built from ${gitHead()})` };
  for (const pkg of PACKAGES) versions[pkg] = versionOf(pkg);
  return {
    date: new Date().toISOString(),
    command,
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    loadAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
    nodeExtraCaCertsSet: process.env.NODE_EXTRA_CA_CERTS !== undefined,
    versions,
  };
}
