/**
 * A plan made up for warming the render thread: every construct a real plan
 * uses, so the JIT has compiled the parser and renderers before the first
 * long ask arrives (the first render in a process takes several times longer).
 */
export function warmUpPlan(steps: number): string {
  const parts = ['# Warm-up plan', 'Rendered once when the render thread starts; never posted.']
  for (let i = 0; i < steps; i++) {
    parts.push(
      `## Step ${i}: change *module${i}*`,
      `Edit \`src/module${i}.ts\` so **every** caller uses the [new API](https://example.com/api/${i}) ~~old~~, see www.example.com and <https://example.com/${i}>.`,
      `- [x] update the callers\n  - in \`src/\`\n  - in \`test/\`\n- [ ] run the suite\n\n1. first\n2. second`,
      `\`\`\`ts\nexport function step${i}(input: string): string {\n  return input.trim()\n}\n\`\`\``,
      `| file | change |\n|:---|---:|\n| module${i}.ts | rename |\n| index.ts | re-export |`,
      `> Risk: step ${i} touches shared code[^${i}].\n\n[^${i}]: Reviewed by the owners.`,
      '---',
    )
  }
  return parts.join('\n\n')
}
