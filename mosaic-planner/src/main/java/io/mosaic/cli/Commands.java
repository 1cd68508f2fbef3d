package io.mosaic.cli;

import io.mosaic.MosaicException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine;

/** What the planning commands share: running one alone (tests, tools), and number formats. */
final class Commands {
  private Commands() {}

  /** Runs one command alone (tests, tools) with the same error handling as {@code mosaic}. */
  static int run(Object command, String[] args, PrintWriter out, PrintWriter err) {
    return MosaicCli.configure(new CommandLine(command), out, err).execute(args);
  }

  /**
   * Refuses, before any work, an output file the command could not write at the end: its directory
   * must exist (the JDK's error would name only the path, after a solve).
   */
  static void checkOutput(String option, Path file) {
    if (file == null) {
      return;
    }
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      throw MosaicException.notFound(
          option
              + " "
              + file
              + ": the directory "
              + dir
              + " does not exist; create it, or write the file into an existing directory");
    }
  }

  /** {@code "310 ct"}, {@code "1234.5 ct"}. */
  static String cents(double cents) {
    return new BigDecimal(cents)
            .setScale(2, RoundingMode.HALF_UP)
            .stripTrailingZeros()
            .toPlainString()
        + " ct";
  }

  /** Decimal GB with 3 decimals, as devices are sold. */
  static String gb(long bytes) {
    return String.format(Locale.ROOT, "%.3f", bytes / 1e9);
  }
}
