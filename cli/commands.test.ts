import { describe, expect, it } from 'vitest';
import { COMMAND_MODULES, modulesFor } from './commands.ts';
import { buildProgram } from './main.ts';

/** Every command path of a program: `bench`, `eval bird`, … */
async function commandPaths(words: readonly string[]): Promise<string[]> {
  const program = await buildProgram(words);
  return program.commands.flatMap((c) =>
    c.commands.length ? c.commands.map((sub) => `${c.name()} ${sub.name()}`) : [c.name()],
  );
}

// Commands the main module defines itself.
const OWN = ['check regex', 'eval nl-rx', 'config'];

describe('command modules', () => {
  it('name exactly the commands they add', async () => {
    const all = await commandPaths([]);
    const declared = COMMAND_MODULES.flatMap((m) => m.commands);
    expect([...all].sort()).toEqual([...declared, ...OWN].sort());
    for (const module of COMMAND_MODULES) {
      const [first, second] = (module.commands[0] as string).split(' ');
      const paths = await commandPaths(second ? [first as string, second] : [first as string]);
      for (const command of module.commands) expect(paths).toContain(command);
    }
  });

  it('a command line loads only the module of its command, a group all of its modules, help everything', () => {
    expect(modulesFor(['eval', 'bird']).map((m) => m.commands)).toEqual([['eval bird']]);
    expect(modulesFor(['report'])).toHaveLength(1);
    expect(modulesFor(['eval']).length).toBe(3);
    expect(modulesFor([])).toBe(COMMAND_MODULES);
    expect(modulesFor(['no-such-command'])).toBe(COMMAND_MODULES);
  });
});
