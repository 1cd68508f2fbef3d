package io.mosaic.trino;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A Spark driver in a child JVM (mosaic-spark's test {@code io.mosaic.spark.peer.SparkPeer}),
 * because Spark and Trino cannot share one class path. Its class path is mosaic-spark's test class
 * path, which that module's build writes to {@code target/test-class-path.txt} (surefire names the
 * file in {@code mosaic.spark.test.class.path}), plus its classes and test classes; its JVM flags
 * are the test JVMs' ({@code mosaic.child.jvm.flags}).
 *
 * <p>Every line the child prints goes to a log file; a failed call throws with the log's last
 * lines, so a test's failure shows what Spark said. {@link #close()} stops the child, forcibly if
 * it does not quit; and the child exits by itself when its standard input closes, so a test JVM
 * that dies leaves no Spark JVM behind.
 */
final class SparkChild implements AutoCloseable {
  private static final String MAIN = "io.mosaic.spark.peer.SparkPeer";
  private static final String REPLY = "MOSAIC-PEER ";
  private static final String EXITED = "\0exited";
  private static final int TAIL = 200;

  private final Process process;
  private final Writer commands;
  private final Path log;
  private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
  private final Deque<String> tail = new ArrayDeque<>();
  private final Thread shutdownHook;

  private SparkChild(Process process, Path log) {
    this.process = process;
    this.log = log;
    this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader = new Thread(this::readOutput, "spark-child-output");
    reader.setDaemon(true);
    reader.start();
    shutdownHook = new Thread(this::kill, "spark-child-kill");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts the child on the pool {@code devices} with Hadoop {@code settings}; it writes its output
   * to {@code log}. Returns at once: {@link #awaitReady} waits for its Spark session.
   */
  static SparkChild start(Path devices, Map<String, String> settings, Path log) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(Arrays.asList(property("mosaic.child.jvm.flags").strip().split("\\s+")));
    command.add("-cp");
    command.add(classPath());
    command.add(MAIN);
    command.add(devices.toString());
    settings.forEach((k, v) -> command.add(k + "=" + v));
    Files.createDirectories(log.getParent());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    return new SparkChild(p, log);
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null) {
      throw new IllegalStateException(
          "system property "
              + name
              + " is not set: run this test through Maven (mosaic-trino's pom sets it for"
              + " surefire), e.g. ./mvnw -o -pl mosaic-trino -am test -Dtest=TrinoSparkHdfsTest"
              + " -Dsurefire.failIfNoSpecifiedTests=false");
    }
    return value;
  }

  /** mosaic-spark's test class path: its dependencies, then its classes and test classes. */
  private static String classPath() throws IOException {
    Path file = Path.of(property("mosaic.spark.test.class.path"));
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException(
          file
              + " does not exist: mosaic-spark's build writes it (process-test-classes); run"
              + " ./mvnw -o -pl mosaic-spark -am process-test-classes, or this test through"
              + " ./mvnw -o -pl mosaic-trino -am test");
    }
    Path target = file.getParent();
    return Files.readString(file).strip()
        + File.pathSeparator
        + target.resolve("classes")
        + File.pathSeparator
        + target.resolve("test-classes");
  }

  private void readOutput() {
    try (BufferedReader out =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Writer file =
            Files.newBufferedWriter(
                log,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        file.write(line);
        file.write('\n');
        file.flush();
        synchronized (tail) {
          tail.addLast(line);
          if (tail.size() > TAIL) {
            tail.removeFirst();
          }
        }
        if (line.startsWith(REPLY)) {
          replies.add(line.substring(REPLY.length()));
        }
      }
    } catch (IOException e) {
      synchronized (tail) {
        tail.addLast("(reading the child's output failed: " + e + ")");
      }
    } finally {
      replies.add(EXITED);
    }
  }

  /** Waits until the child's Spark session is up. */
  void awaitReady(Duration timeout) {
    String reply = reply("start", timeout);
    if (!reply.equals("ready")) {
      throw failure("start: unexpected reply " + reply);
    }
  }

  /** Sends a command (fields joined by tabs) without waiting for its reply. */
  void send(String... fields) {
    try {
      commands.write(String.join("\t", fields));
      commands.write('\n');
      commands.flush();
    } catch (IOException e) {
      throw failure("sending " + fields[0] + ": " + e);
    }
  }

  /** The payload of the next reply, which must be {@code OK}; fails with the child's output. */
  String reply(String what, Duration timeout) {
    String line;
    try {
      line = replies.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure(what + ": interrupted");
    }
    if (line == null) {
      throw failure(what + ": no reply within " + timeout);
    }
    if (line.equals(EXITED)) {
      replies.add(EXITED);
      throw failure(what + ": the Spark child exited (" + exitStatus() + ")");
    }
    if (!line.startsWith("OK")) {
      throw failure(what + ": " + line);
    }
    return line.substring(2).strip();
  }

  /** Sends a command and returns its reply's payload. */
  String call(Duration timeout, String... fields) {
    send(fields);
    return reply(fields[0], timeout);
  }

  private String exitStatus() {
    try {
      return process.waitFor(5, TimeUnit.SECONDS)
          ? "status " + process.exitValue()
          : "still running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private AssertionError failure(String message) {
    return new AssertionError("Spark child: " + message + "\n" + outputTail());
  }

  /** The child's last lines of output, for a failed test's log. */
  String outputTail() {
    synchronized (tail) {
      return "--- last "
          + tail.size()
          + " lines of the Spark child's output (all in "
          + log
          + ") ---\n"
          + String.join("\n", tail)
          + "\n--- end of the Spark child's output ---";
    }
  }

  private void kill() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  /** Asks the child to quit; kills it if it has not within 30 s. */
  @Override
  public void close() {
    try {
      if (process.isAlive()) {
        try {
          send("quit");
        } catch (AssertionError e) {
          // Its input is closed already: it is exiting, or is killed below.
        }
      }
      boolean quit = process.waitFor(30, TimeUnit.SECONDS);
      if (!quit || process.exitValue() != 0) {
        System.out.println(
            "Spark child "
                + (quit ? "exited with status " + process.exitValue() : "did not quit: killed")
                + "\n"
                + outputTail());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      kill();
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // The JVM is shutting down: the hook runs anyway.
      }
    }
  }
}
