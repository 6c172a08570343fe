/**
 * The frame every `offerops` command is built on: commander's Command and
 * Help, told to speak as the CLI does. Help is wrapped to the terminal (or
 * `helpWidth`), lists every command below an area (`offerops admin --help`),
 * and ends with the command's notes; commander's errors become UsageErrors
 * (exit 2) in our words, keeping its did-you-mean.
 */
import { Command, Help, HelpContext, Option } from 'commander';
import { UsageError } from './errors';

/** The words of a command below `offerops`: `['admin', 'key', 'create']`. */
export const pathOf = (cmd: Command): string[] => (cmd.parent ? [...pathOf(cmd.parent), cmd.name()] : []);

const leaves = (cmd: Command): Command[] => cmd.commands.flatMap((c) => (c.commands.length ? leaves(c) : [c]));

export class OfferopsHelp extends Help {
  /** The command whose help is being made: terms of the commands listed are relative to it. */
  private helped: Command | null = null;

  /** In its help, the top level lists its groups and any level below every command under it; elsewhere (suggestions) its own. */
  visibleCommands(cmd: Command): Command[] {
    return this.helped === cmd && cmd.parent ? leaves(cmd) : super.visibleCommands(cmd);
  }

  subcommandTerm(cmd: Command): string {
    const from = this.helped ? pathOf(this.helped).length : pathOf(cmd).length - 1;
    return [...pathOf(cmd).slice(from), ...cmd.registeredArguments.map((a) => a.name())].join(' ');
  }

  /** The column of terms takes at most a third of the width, so that descriptions have room to wrap. */
  padWidth(cmd: Command, helper: Help): number {
    return Math.min(super.padWidth(cmd, helper), Math.max(12, Math.floor((this.helpWidth ?? 80) / 3)));
  }

  /** A term wider than its column stands on its own line, its description under it where the others are. */
  formatItem(term: string, termWidth: number, description: string, helper: Help): string {
    if (this.displayWidth(term) <= termWidth || !description) return super.formatItem(term, termWidth, description, helper);
    return `  ${term}\n${super.formatItem('', termWidth, description, helper)}`;
  }

  /** `--status pending|approved`, `--account ID`, `--with-image`: the flags as typed. */
  optionTerm(option: Option): string {
    return option.flags.replace(/ \[.*\]$/, '').replace(/[<>]/g, '');
  }

  optionDescription(option: Option): string {
    return option.description;
  }

  /** `usage:`, `options:`, `commands:` as the rest of the CLI writes them; our own headings as written. */
  styleTitle(title: string): string {
    return /^(Usage|Arguments|Options|Global Options|Commands):$/.test(title) ? title.toLowerCase() : title;
  }

  /** The usage line, wrapped under itself when it is wider than the help. */
  commandUsage(cmd: Command): string {
    const usage = super.commandUsage(cmd);
    const width = (this.helpWidth ?? 80) - 'usage: '.length;
    return this.boxWrap(usage, width).replace(/\n/g, `\n${' '.repeat('usage: '.length)}`);
  }

  formatHelp(cmd: Command, helper: Help): string {
    const notes = cmd instanceof OfferopsCommand ? cmd.notes : [];
    const width = helper.helpWidth ?? 80;
    this.helped = cmd;
    return [super.formatHelp(cmd, helper).trimEnd(), ...notes.map((n) => `\n${helper.boxWrap(n, width)}`), ''].join('\n');
  }
}

const didYouMean = (message: string): string => {
  const similar = /\(Did you mean (?:one of )?(.+)\?\)/.exec(message)?.[1];
  return similar ? `; did you mean ${similar}?` : '';
};

export class OfferopsCommand extends Command {
  /** Paragraphs shown under the options in its help (what it prints, how it finds the stack, …). */
  notes: string[] = [];

  createCommand(name?: string): OfferopsCommand {
    return new OfferopsCommand(name);
  }

  createHelp(): Help {
    return Object.assign(new OfferopsHelp(), this.configureHelp());
  }

  /** Where to look after a usage error: a leaf's usage, a group's help command, or the whole help at the top. */
  hint(): string {
    const words = pathOf(this).join(' ');
    if (!this.parent) return this.helpInformation().trimEnd();
    if (this.commands.length) return `Run 'offerops ${words} --help' to see its commands.`;
    return `usage: ${this.createHelp().commandUsage(this)}\nRun 'offerops ${words} --help' for its options.`;
  }

  /** Commander's errors, said as the rest of the CLI says them; an option that took another as its value is the cause to name first. */
  error(message: string, options?: { code?: string }): never {
    this.refuseOptionsAsValues();
    const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
    let said: string;
    switch (options?.code) {
      case 'commander.unknownCommand':
        said = `unknown command '${[...pathOf(this), this.args[0]].join(' ')}'${didYouMean(message)}`;
        break;
      case 'commander.unknownOption':
        said = `unknown option ${quoted}${didYouMean(message)}`;
        break;
      case 'commander.excessArguments': {
        const extra = this.args.slice(this.registeredArguments.length);
        said = `unexpected argument${extra.length > 1 ? 's' : ''}: ${extra.join(' ')}`;
        break;
      }
      case 'commander.missingArgument':
        said = `missing ${quoted}`;
        break;
      case 'commander.optionMissingArgument':
        said = `${quoted.split(' ')[0]} needs a value`;
        break;
      default:
        said = message.replace(/^error: /, '');
    }
    throw new UsageError(said, this.hint());
  }

  /**
   * An option whose value is another option of this command (`--channel --address X`: a shell
   * variable between them was empty) is refused, naming both, instead of taken as the value.
   */
  refuseOptionsAsValues(): void {
    const longs = new Set(this.options.map((o) => o.long));
    for (const o of this.options) {
      const value: unknown = this.getOptionValue(o.attributeName());
      if (typeof value === 'string' && longs.has(value.split('=')[0])) {
        throw new UsageError(`${o.long} needs a value, but ${value} came next (is a shell variable empty?)`, this.hint());
      }
    }
  }

  /** A group called without a command: a usage error, with the group's commands to choose from. */
  help(context?: HelpContext): never;
  help(cb: (str: string) => string): never;
  help(arg?: HelpContext | ((str: string) => string)): never {
    if (typeof arg !== 'object' || !arg.error) return super.help(arg as HelpContext);
    const words = pathOf(this);
    throw new UsageError(words.length ? `'offerops ${words.join(' ')}' needs a command` : 'no command given', this.hint());
  }
}
