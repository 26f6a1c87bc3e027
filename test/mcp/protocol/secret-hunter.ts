/**
 * The secret hunt: everything a host could log of a failure, walked as a logger or an attacker would:
 * every own and inherited property and getter (symbols and non-enumerable ones too), the whole `cause`
 * chain, `data`, `stack`, `String(value)` and `util.inspect` with hidden fields and getters. Each secret is
 * searched as given and in the forms it may be echoed in (percent-encoded, base64, JSON-escaped).
 */
import { inspect } from 'node:util';
import { vi } from 'vitest';

/** The forms a secret is searched in. */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(Buffer.from(secret).toString('base64'));
  }
  return [...forms];
}

/** Where in `roots` (by path) any of `secrets` occurs; empty when none does. */
export function hunt(roots: Record<string, unknown>, secrets: readonly string[]): string[] {
  const forms = secretForms(secrets);
  const found: string[] = [];
  const seen = new Set<object>();
  const check = (text: string, where: string) => {
    for (const form of forms) if (text.includes(form)) found.push(`${where} contains ${form}`);
  };
  const visit = (value: unknown, where: string, depth: number) => {
    if (typeof value === 'string') return check(value, where);
    if (typeof value !== 'object' || value === null || depth > 12 || seen.has(value)) return;
    seen.add(value);
    if (value instanceof Error) {
      check(String(value), `${where} (String)`);
      if (typeof value.stack === 'string') check(value.stack, `${where}.stack`);
    }
    if (value instanceof Map || value instanceof Set) {
      let index = 0;
      for (const entry of value) visit(entry, `${where}[entry ${index++}]`, depth + 1);
    }
    if (value instanceof URL) check(value.href, `${where}.href`);
    if (value instanceof Headers) for (const [name, text] of value) check(text, `${where}.${name}`);
    // Own properties, then every prototype's getters read on the value itself.
    for (let holder: object | null = value; holder !== null; holder = Object.getPrototypeOf(holder)) {
      if (holder === Object.prototype || holder === Function.prototype) break;
      for (const key of Reflect.ownKeys(holder)) {
        const descriptor = Object.getOwnPropertyDescriptor(holder, key);
        if (descriptor === undefined) continue;
        let property: unknown;
        if (descriptor.get !== undefined) {
          try {
            property = descriptor.get.call(value);
          } catch {
            continue; // a getter over internal slots the copy does not have
          }
        } else if (holder === value) property = descriptor.value;
        else continue;
        if (typeof property === 'function') continue;
        visit(property, `${where}.${String(key)}`, depth + 1);
      }
    }
  };
  for (const [name, root] of Object.entries(roots)) {
    visit(root, name, 0);
    check(inspect(root, { depth: 12, showHidden: true, getters: true }), `inspect(${name})`);
  }
  return found;
}

/** Every console line written while the returned list is alive (each console method spied). */
export function captureConsole(): unknown[][] {
  const lines: unknown[][] = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push([method, ...args]);
    });
  }
  return lines;
}
