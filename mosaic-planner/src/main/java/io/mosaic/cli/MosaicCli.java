package io.mosaic.cli;

import io.mosaic.device.DeviceConfigException;
import io.mosaic.placement.InfeasiblePlacementException;
import io.mosaic.table.CorruptTableException;
import io.mosaic.table.TableConflictException;
import io.mosaic.table.TableNotFoundException;
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
      RollbackCommand.class,
      CloneCommand.class,
      TraceCommand.class,
      PlaceCommand.class,
      RecommendCommand.class,
      PredictCommand.class,
      ExportMipCommand.class,
      ImportSolutionCommand.class,
      CommandLine.HelpCommand.class
    })
public final class MosaicCli {
  /** Exit status of a command that failed on bad input (config, files, devices). */
  public static final int INPUT_ERROR = 1;

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
      return CommandLine.ExitCode.USAGE;
    }
    return cli.execute(args);
  }

  /**
   * Output streams and error handling for a command: a problem the user can fix (bad input, a
   * missing or damaged file, an impossible placement) prints one line and exits {@link
   * #INPUT_ERROR}; anything else is a bug and keeps its stack trace.
   */
  static CommandLine configure(CommandLine cli, PrintWriter out, PrintWriter err) {
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          if (ex instanceof DeviceConfigException
              || ex instanceof IllegalArgumentException
              || ex instanceof TableNotFoundException
              || ex instanceof CorruptTableException
              || ex instanceof TableConflictException
              || ex instanceof InfeasiblePlacementException
              || ex instanceof IOException
              || ex instanceof UncheckedIOException) {
            commandLine
                .getErr()
                .println("mosaic " + commandLine.getCommandName() + ": " + ex.getMessage());
            return INPUT_ERROR;
          }
          throw ex;
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
