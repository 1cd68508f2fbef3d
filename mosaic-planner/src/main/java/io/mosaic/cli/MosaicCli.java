package io.mosaic.cli;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code mosaic} command: one subcommand per task a person runs against a device pool. */
@Command(
    name = "mosaic",
    mixinStandardHelpOptions = true,
    versionProvider = MosaicCli.Version.class,
    description = {
      "Mosaic: a budget-conscious storage engine for Spark and Trino.",
      "Places every column on the device that minimises scan time, and says what to buy."
    },
    subcommands = {
      DemoCommand.class,
      DevicesCommand.class,
      CalibrateCommand.class,
      TableCommand.class,
      ImportCommand.class,
      MigrateCommand.class,
      GcCommand.class,
      AnalyzeCommand.class,
      RollbackCommand.class,
      CloneCommand.class,
      AdoptCommand.class,
      TraceCommand.class,
      PlaceCommand.class,
      RecommendCommand.class,
      PredictCommand.class,
      ExportMipCommand.class,
      ImportSolutionCommand.class,
      MaintainCommand.class,
      MovesCommand.class,
      CommandLine.HelpCommand.class
    })
public final class MosaicCli {
  /**
   * Exit status of a command that failed on a request, option or configuration value ({@link
   * MosaicException.Kind#INVALID_ARGUMENT}), or on bad input that has no kind yet.
   */
  public static final int INPUT_ERROR = 1;

  /** Exit status of an unknown command or option, or a missing argument (picocli's usage error). */
  public static final int USAGE_ERROR = CommandLine.ExitCode.USAGE;

  /**
   * The exit status of each kind of failure, documented in docs/README.md ("Exit codes"): 1 and 2
   * keep the meaning they had before kinds existed, the others follow in the kinds' order.
   */
  public static int exitCode(MosaicException.Kind kind) {
    return switch (kind) {
      case INVALID_ARGUMENT -> INPUT_ERROR;
      case NOT_FOUND -> 3;
      case CORRUPT -> 4;
      case CONFLICT -> 5;
      case DEVICE_FULL -> 6;
      case INFEASIBLE -> 7;
      case UNSUPPORTED -> 8;
      case IO -> 9;
    };
  }

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    int status = run(args, out, err);
    out.flush();
    err.flush();
    System.exit(status);
  }

  /** Runs a command line, printing to {@code out} and {@code err}; returns the exit status. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = configure(new CommandLine(new MosaicCli()), out, err);
    // picocli lets a help option win over an argument it cannot match, so `mosaic typo --help`
    // would print the top-level help and exit 0: an unknown command must be an error.
    if (args.length > 0 && !args[0].startsWith("-") && !cli.getSubcommands().containsKey(args[0])) {
      err.println(
          "mosaic: unknown command '"
              + args[0]
              + "'; the commands are "
              + String.join(", ", cli.getSubcommands().keySet())
              + " (mosaic --help describes them)");
      return USAGE_ERROR;
    }
    return cli.execute(args);
  }

  /**
   * Output streams and error handling for a command: a problem the user can fix (bad input, a
   * missing or damaged file, an impossible placement) prints one line and exits with its kind's
   * {@link #exitCode}; anything else is a bug and keeps its stack trace.
   */
  static CommandLine configure(CommandLine cli, PrintWriter out, PrintWriter err) {
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          int status;
          if (ex instanceof MosaicException m) {
            status = exitCode(m.kind());
          } else if (ex instanceof IOException || ex instanceof UncheckedIOException) {
            status = exitCode(MosaicException.Kind.IO);
          } else if (ex instanceof IllegalArgumentException) {
            status = INPUT_ERROR; // a check not yet given a kind
          } else {
            throw ex;
          }
          commandLine
              .getErr()
              .println("mosaic " + commandLine.getCommandName() + ": " + ex.getMessage());
          return status;
        });
    return cli;
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = MosaicCli.class.getPackage().getImplementationVersion();
      return new String[] {"mosaic " + (v == null ? "(development build)" : v)};
    }
  }
}
