#!/usr/bin/env node
// One client, one workload, many iterations: the thing to run under a profiler.
//   node --cpu-prof --cpu-prof-dir=bench/profiles bench/profile.mjs <client> <stdio|http|burst-stdio|burst-http> [calls]
// then summarise with `node bench/profile-summary.mjs bench/profiles/<file>.cpuprofile`.
import { ADAPTERS } from './lib/clients.mjs';
import { fastStdio, startFastHttp } from './lib/servers.mjs';

const [clientId = 'agentwire', mode = 'stdio', callsArg = '5000'] = process.argv.slice(2);
const adapter = ADAPTERS.find((a) => a.id === clientId);
if (!adapter) throw new Error(`unknown client ${clientId}; one of ${ADAPTERS.map((a) => a.id).join(', ')}`);
const calls = Number(callsArg);
const http = mode.endsWith('http') ? await startFastHttp() : undefined;
const conn = await (http ? adapter.http(http.url) : adapter.stdio(fastStdio()));
try {
  const start = performance.now();
  const cpu = process.cpuUsage();
  if (mode.startsWith('burst')) {
    for (let r = 0; r < calls / 1000; r++) {
      await Promise.all(Array.from({ length: 1000 }, (_, i) => conn.call('echo', { message: `b${i}` })));
    }
  } else {
    for (let i = 0; i < calls; i++) await conn.call('echo', { message: `hello ${i}` });
  }
  const us = ((performance.now() - start) * 1000) / calls;
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / calls;
  process.stdout.write(
    `${clientId} ${mode}: ${calls} calls, ${us.toFixed(1)} µs wall and ${cpuUs.toFixed(1)} µs client CPU per call\n`,
  );
} finally {
  await conn.close();
  await http?.stop();
}
