package io.mosaic.cli;

import io.mosaic.table.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A {@code mosaic} command in a child JVM for the crash tests: killed with SIGKILL (no shutdown
 * hooks, no finally blocks) at the crash point its JVM options name (core's {@code CrashPoints}),
 * or a given time after it printed its first line of work.
 */
public final class KilledCli {
  private KilledCli() {}

  /** How a run ended: killed or not, at which crash point, and everything it printed. */
  public record Run(boolean killed, String crashPoint, List<String> output) {}

  /**
   * Runs {@code mosaic args}, killed {@code killAfterMillis} after it printed a line starting with
   * {@code started} (when not already ended); {@code -1} lets it run to its end or its crash point.
   * A run that was not killed must exit 0.
   */
  public static Run run(
      List<String> jvmOptions, List<String> args, String started, int killAfterMillis)
      throws Exception {
    List<String> command = ChildJvm.command(jvmOptions, MosaicCli.class, args);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> output = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch working = new CountDownLatch(1);
    String[] crashPoint = {null};
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader out =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                  output.add(line);
                  if (line.startsWith(started)) {
                    working.countDown();
                  }
                  if (line.startsWith("CRASHPOINT ")) {
                    crashPoint[0] = line.split(" ")[2];
                    process.destroyForcibly();
                  }
                }
              } catch (IOException e) {
                // the process was killed
              } finally {
                working.countDown();
              }
            });
    reader.start();
    boolean killed = false;
    if (killAfterMillis >= 0) {
      working.await(60, TimeUnit.SECONDS);
      if (!process.waitFor(killAfterMillis, TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        killed = true;
      }
    }
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("mosaic " + args.get(0) + " did not end: " + output);
    }
    reader.join(10_000);
    killed |= crashPoint[0] != null;
    if (!killed && process.exitValue() != 0) {
      throw new AssertionError("mosaic " + args.get(0) + " failed: " + String.join("\n", output));
    }
    return new Run(killed, crashPoint[0], List.copyOf(output));
  }
}
