/**
 * What `agentwire resources` and `agentwire prompts` print for people: aligned one-line listings, a
 * resource's contents, a prompt's messages. `--json` prints the server's own objects instead.
 *
 *     demo://resource/static/document/architecture.md  architecture.md (text/markdown): Static document …
 *     simple-prompt: A prompt with no arguments
 *       (no arguments)
 */
import { base64DecodedSize, formatBytes } from '../mcp/adapter/content.js';
import {
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  renderContentBlock,
} from '../mcp/index.js';
import { oneLine } from './tool-list.js';

/** `resources list`: one line per resource, its URI first; `(no resources)` for none. */
export function formatResources(resources: readonly Resource[]): string {
  if (resources.length === 0) return '(no resources)\n';
  return aligned(resources.map((resource) => [resource.uri, describe(resource)]));
}

/** `resources templates`: one line per template, its URI template first; `(no resource templates)` for none. */
export function formatTemplates(templates: readonly ResourceTemplate[]): string {
  if (templates.length === 0) return '(no resource templates)\n';
  return aligned(templates.map((template) => [template.uriTemplate, describe(template)]));
}

/**
 * `resources read`: each text content as it is (newline-terminated), each blob as
 * `[blob <uri>: <mime type>, <decoded size>]`; `(no contents)` for none.
 */
export function formatContents(result: ReadResourceResult): string {
  if (result.contents.length === 0) return '(no contents)\n';
  return result.contents
    .map((content) => {
      if ('text' in content && typeof content.text === 'string') return newlineTerminated(content.text);
      const blob = 'blob' in content && typeof content.blob === 'string' ? content.blob : '';
      const size = formatBytes(base64DecodedSize(blob));
      return `[blob ${content.uri}: ${content.mimeType ?? 'unknown type'}, ${size}]\n`;
    })
    .join('');
}

/** `prompts list`: per prompt its name and description, then one line per argument; `(no prompts)` for none. */
export function formatPrompts(prompts: readonly Prompt[]): string {
  if (prompts.length === 0) return '(no prompts)\n';
  return prompts
    .map((prompt) => {
      const about = oneLine(prompt.description ?? '');
      const lines = [about === '' ? prompt.name : `${prompt.name}: ${about}`];
      for (const argument of prompt.arguments ?? []) {
        const flag = argument.required === true ? ' (required)' : '';
        const text = oneLine(argument.description ?? '');
        lines.push(`  ${argument.name}${flag}${text === '' ? '' : `: ${text}`}`);
      }
      if ((prompt.arguments ?? []).length === 0) lines.push('  (no arguments)');
      return `${lines.join('\n')}\n`;
    })
    .join('');
}

/** `prompts get`: each message as `<role>: <content>` (content rendered as a model sees it). */
export function formatPromptMessages(result: GetPromptResult): string {
  if (result.messages.length === 0) return '(no messages)\n';
  return result.messages
    .map((message) => newlineTerminated(`${message.role}: ${renderContentBlock(message.content)}`))
    .join('');
}

/** `name (mime type): description`, the parts that are there. */
function describe(item: { name: string; title?: string; description?: string; mimeType?: string }): string {
  const label = item.title ?? item.name;
  const mime = item.mimeType ? ` (${item.mimeType})` : '';
  const about = oneLine(item.description ?? '');
  return `${label}${mime}${about === '' ? '' : `: ${about}`}`;
}

function aligned(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([first]) => first.length));
  return rows.map(([first, rest]) => `${`${first.padEnd(width)}  ${rest}`.trimEnd()}\n`).join('');
}

function newlineTerminated(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
