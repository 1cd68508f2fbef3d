package io.mosaic.table;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts a main class of the test class path in a new JVM, as the crash and race tests do. */
public final class ChildJvm {
  private ChildJvm() {}

  public static List<String> command(List<String> jvmOptions, Class<?> main, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:+IgnoreUnrecognizedVMOptions");
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("--sun-misc-unsafe-memory-access=allow");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    return command;
  }

  public static Process start(Class<?> main, List<String> args) throws IOException {
    return new ProcessBuilder(command(List.of(), main, args)).redirectErrorStream(true).start();
  }
}
