/** A plan of about `bytes` characters: headings, prose with links, nested lists, code, tables, quotes. */
export function benchPlan(seed: number, bytes: number): string {
  const parts = [`# Plan ${seed}`]
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const part = [
      `## Step ${i}\n\nChange \`module${i}.ts\` so that **every** caller uses the [new API](https://example.com/api/${i}); keep the old one until step ${i + 3}.`,
      `- update the callers\n  - in \`src/\`\n  - in \`test/\`\n- run the suite`,
      `\`\`\`ts\nexport function step${i}(input: string): string {\n  return input.trim()\n}\n\`\`\``,
      `| file | change |\n|---|---|\n| module${i}.ts | rename |\n| index.ts | re-export |`,
      `> Risk: step ${i} touches shared code.`,
    ][i % 5]!
    parts.push(part)
    size += part.length + 2
  }
  return parts.join('\n\n')
}
