// Test fixture for the real-harness suite: a headless run has no `/plan`
// command, so this harness plugin turns plan mode on for every new agent,
// through the plan-mode service's own API (what `/plan` calls).
export const name = 'test-plan-mode-on'
export const inject = ['planMode']
export function apply(ctx) {
  ctx.on('agent/created', ({ agent }) => {
    ctx.planMode.set(agent, true)
  })
}
