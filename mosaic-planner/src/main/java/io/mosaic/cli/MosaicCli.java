package io.mosaic.cli;

import io.mosaic.MosaicException;
import io.mosaic.operations.MaintenanceSyntax;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
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
      OptimizeCommand.class,
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
    // Every path and duration option of every command, checked in one place so that the error
    // names the option (picocli prefixes it) and says what would be accepted.
    cli.registerConverter(Path.class, MosaicCli::path);
    cli.registerConverter(Duration.class, MosaicCli::duration);
    cli.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          int status;
          if (ex instanceof MosaicException m) {
            status = exitCode(m.kind());
          } else if (ex instanceof IOException || ex instanceof UncheckedIOException) {
            status = exitCode(MosaicException.Kind.IO);
            commandLine
                .getErr()
                .println("mosaic " + commandLine.getCommandName() + ": " + describe(ex));
            return status;
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

  /**
   * A path as typed: an empty or blank one is refused, since {@code Path.of("")} is the working
   * directory and a command would quietly write there (a table root made of the current folder).
   */
  static Path path(String text) {
    if (text.isBlank()) {
      throw new CommandLine.TypeConversionException(
          "the path is empty; give a file or directory (use '.' for the current directory)");
    }
    return Path.of(text);
  }

  /** A table's location as typed: a path ({@link #path}), or a URI of another storage. */
  static final class Location implements CommandLine.ITypeConverter<String> {
    @Override
    public String convert(String text) {
      return io.mosaic.table.MosaicTable.isRemote(text) ? text : path(text).toString();
    }
  }

  /**
   * A duration as every option takes it ({@link MaintenanceSyntax#duration}): {@code 1h}, {@code
   * 2m}, {@code 10s}, {@code 500ms}, ISO-8601 {@code PT1H}; zero is allowed ({@code gc --grace 0}).
   */
  static Duration duration(String text) {
    try {
      return MaintenanceSyntax.durationOrZero(text, "'" + text + "'");
    } catch (MosaicException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }

  /**
   * An I/O failure in words: the JDK's file-system exceptions carry only the path as their message,
   * so the reason (no such file, permission denied) is added.
   */
  static String describe(Exception ex) {
    Throwable t = ex instanceof UncheckedIOException u ? u.getCause() : ex;
    String context =
        t != ex && ex.getMessage() != null && !ex.getMessage().equals(String.valueOf(t))
            ? ex.getMessage() + ": "
            : "";
    if (t instanceof NoSuchFileException f && f.getFile() != null) {
      Path parent = Path.of(f.getFile()).toAbsolutePath().getParent();
      return context
          + f.getFile()
          + (parent != null && !Files.isDirectory(parent)
              ? ": its directory " + parent + " does not exist; create it or name another"
              : ": no such file or directory");
    }
    if (t instanceof AccessDeniedException f && f.getFile() != null) {
      return context + f.getFile() + ": permission denied; check its permissions and owner";
    }
    if (t instanceof FileSystemException f && f.getFile() != null) {
      return context + f.getFile() + ": " + (f.getReason() == null ? t : f.getReason());
    }
    return ex.getMessage();
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = MosaicCli.class.getPackage().getImplementationVersion();
      return new String[] {"mosaic " + (v == null ? "(development build)" : v)};
    }
  }
}
