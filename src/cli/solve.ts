/** Placeholder: the owner of this file replaces it with the real `solve` commands. */
import type { Command } from 'commander';

/** Registers the solve commands on the program (none yet). */
export function registerSolveCommands(program: Command): void {
  void program;
}
