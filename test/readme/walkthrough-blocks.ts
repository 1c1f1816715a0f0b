// The README's walkthrough as the test runs it: every ```sh block right after a `<!-- walkthrough: NAME -->`
// comment, in the order they appear, so a later section can continue the walk with what an earlier one
// left in the shell (its variables and functions). A marker without its block is an error, never a block
// silently left out.

export interface WalkthroughBlock {
  name: string;
  script: string;
}

const MARKER = /^<!-- walkthrough: ([\w-]+) -->$/;

export function walkthroughBlocks(markdown: string): WalkthroughBlock[] {
  const lines = markdown.split('\n');
  const blocks: WalkthroughBlock[] = [];
  lines.forEach((line, index) => {
    const name = MARKER.exec(line.trim())?.[1];
    if (name === undefined) return;
    if (lines[index + 1]?.trim() !== '```sh') {
      throw new Error(`walkthrough marker "${name}" (line ${index + 1}) is not followed by a \`\`\`sh block`);
    }
    const end = lines.findIndex((other, at) => at > index + 1 && other.trim() === '```');
    if (end < 0) throw new Error(`walkthrough block "${name}" (line ${index + 2}) is never closed`);
    blocks.push({ name, script: lines.slice(index + 2, end).join('\n') });
  });
  return blocks;
}

/**
 * One bash script running the blocks in order, as a user pasting them into one terminal would, except
 * that it stops at the first failing command (errexit, pipefail) and says on stderr which block it is
 * in. Every variable the blocks set is exported (allexport) and, at the end, written as JSON to the file
 * named by `$WALKTHROUGH_STATE`, so the test can check the API with the walk's own accounts and ids.
 */
export function walkthroughScript(blocks: WalkthroughBlock[]): string {
  return [
    'set -eo pipefail -o allexport',
    ...blocks.flatMap(({ name, script }) => [`echo '--- walkthrough block: ${name}' >&2`, script]),
    `node -e 'require("fs").writeFileSync(process.env.WALKTHROUGH_STATE, JSON.stringify(process.env))'`,
  ].join('\n');
}
