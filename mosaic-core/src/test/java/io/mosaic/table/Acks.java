package io.mosaic.table;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The acknowledgements of {@link LogProcess}es, read from their files as they grow: each line was
 * written and fsynced only after its commit was published, so a line read here is a promise.
 */
final class Acks {
  /** One acknowledged commit: an append of {@code what} (a record id) or a swap (a segment). */
  record Ack(long version, boolean append, String what, List<Long> lost) {}

  private final Path dir;
  private final Map<Path, Long> offsets = new HashMap<>();
  private final List<Ack> acks = new ArrayList<>();

  Acks(Path dir) {
    this.dir = dir;
  }

  /** Every acknowledgement written so far (whole lines only: a killed writer may tear its last). */
  List<Ack> all() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        long from = offsets.getOrDefault(f, 0L);
        byte[] bytes = Files.readAllBytes(f);
        int end = from > bytes.length ? bytes.length : (int) from;
        String text = new String(bytes, end, bytes.length - end, StandardCharsets.UTF_8);
        int whole = text.lastIndexOf('\n') + 1;
        for (String line : text.substring(0, whole).split("\n")) {
          if (!line.isEmpty()) {
            acks.add(parse(line));
          }
        }
        offsets.put(
            f, end + (long) text.substring(0, whole).getBytes(StandardCharsets.UTF_8).length);
      }
    }
    return acks;
  }

  private static Ack parse(String line) {
    String[] parts = line.split(" ");
    List<Long> lost = new ArrayList<>();
    if (!parts[3].equals("-")) {
      for (String v : parts[3].substring(1, parts[3].length() - 1).split(",")) {
        lost.add(Long.parseLong(v));
      }
    }
    return new Ack(Long.parseLong(parts[1]), parts[0].equals("ACK"), parts[2], lost);
  }

  /**
   * What is wrong if a record acknowledged at version {@code v} or before is not in it; else null.
   */
  String missingFrom(long version, java.util.Set<String> records) throws IOException {
    for (Ack a : all()) {
      if (a.append() && a.version() <= version && !records.contains(a.what())) {
        return "record " + a.what() + " acknowledged at v" + a.version() + " is not in v" + version;
      }
    }
    return null;
  }
}
