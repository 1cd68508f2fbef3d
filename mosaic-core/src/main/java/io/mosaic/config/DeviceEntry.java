package io.mosaic.config;

import static io.mosaic.config.DeviceConfigParser.COLD_EXAMPLE;
import static io.mosaic.config.DeviceConfigParser.COLD_FIELDS;
import static io.mosaic.config.DeviceConfigParser.EMULATE_FIELDS;
import static io.mosaic.config.DeviceConfigParser.EXAMPLES;
import static io.mosaic.config.DeviceConfigParser.ID;
import static io.mosaic.config.DeviceConfigParser.escape;
import static io.mosaic.config.DeviceConfigParser.literal;
import static io.mosaic.config.DeviceConfigParser.sorted;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.tomlj.TomlTable;

/**
 * One {@code [[device]]} table being read; problems go to the parser's list ({@link
 * DeviceConfigParser}).
 */
final class DeviceEntry {
  private final Path file;
  private final List<ConfigProblem> problems;
  final TomlTable table;
  private final int headerLine;
  private String device;
  // The field naming the device's local directory in messages: path, or a file: uri.
  String locationField = "path";

  DeviceEntry(
      Path file,
      List<ConfigProblem> problems,
      TomlTable table,
      int headerLine,
      Set<String> allowed) {
    this.file = file;
    this.problems = problems;
    this.table = table;
    this.headerLine = headerLine;
    this.device = table.isString("id") ? escape(table.getString("id")) : null;
    for (String key : table.keySet()) {
      if (!allowed.contains(key)) {
        problem(key, "unknown field; allowed: " + String.join(", ", sorted(allowed)));
      }
    }
  }

  int line(String field) {
    return table.contains(field) ? table.inputPositionOf(field).line() : headerLine;
  }

  void problem(String field, String message) {
    problems.add(new ConfigProblem(file, line(field), device, field, message));
  }

  String id() {
    Optional<String> id =
        required(
            "id",
            v -> {
              String text;
              if (v instanceof Long l) {
                if (l < 0) {
                  throw MosaicException.invalid(
                      "a numeric id must be a device number, 0 or more; otherwise write the id"
                          + " as a string, like id = \"nvme\"");
                }
                text = Long.toString(l);
              } else if (v instanceof String) {
                text = string(v);
              } else {
                throw MosaicException.invalid(
                    "expected a quoted string like id = \"nvme\" (or a device number 0, 1, ...)");
              }
              if (!ID.matcher(text).matches()) {
                throw MosaicException.invalid("ids may use only letters, digits, '-', '_' and '.'");
              }
              return text;
            });
    device = id.orElse(device);
    return id.orElse(null);
  }

  <T> Optional<T> required(String field, Function<Object, T> reader) {
    if (!table.contains(field)) {
      problems.add(
          new ConfigProblem(
              file,
              headerLine,
              device,
              field,
              "missing; every [[device]] needs one, e.g. " + EXAMPLES.get(field)));
      return Optional.empty();
    }
    return optional(field, reader);
  }

  <T> Optional<T> optional(String field, Function<Object, T> reader) {
    Object value = table.get(field);
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(reader.apply(value));
    } catch (IllegalArgumentException | MosaicException ex) {
      problem(field, "bad value " + literal(value) + ": " + ex.getMessage());
      return Optional.empty();
    }
  }

  Emulation emulation(Object value) {
    if (!(value instanceof TomlTable t)) {
      throw MosaicException.invalid(
          "expected a table like { read = \"230 MB/s\", seek = \"8 ms\" }");
    }
    for (String key : t.keySet()) {
      if (!EMULATE_FIELDS.contains(key)) {
        throw MosaicException.invalid("unknown field '" + key + "'; allowed: read, seek");
      }
    }
    if (!t.contains("read")) {
      throw MosaicException.invalid("needs read, e.g. { read = \"230 MB/s\" }");
    }
    Bandwidth read;
    Latency seek;
    try {
      read = bandwidth(t.get("read"));
    } catch (IllegalArgumentException | MosaicException ex) {
      throw MosaicException.invalid("read " + literal(t.get("read")) + ": " + ex.getMessage());
    }
    try {
      seek = t.contains("seek") ? latency(t.get("seek")) : Latency.ZERO;
    } catch (IllegalArgumentException | MosaicException ex) {
      throw MosaicException.invalid("seek " + literal(t.get("seek")) + ": " + ex.getMessage());
    }
    return new Emulation(read, seek);
  }

  /**
   * The {@code cold} table, if any (Skipper's cold storage device). Each bad key is reported on its
   * own, as field {@code cold.KEY}; the result is empty if anything is wrong.
   */
  Optional<ColdSpec> cold() {
    Object value = table.get("cold");
    if (value == null) {
      return Optional.empty();
    }
    if (!(value instanceof TomlTable t)) {
      problem("cold", "bad value " + literal(value) + ": expected a table like " + COLD_EXAMPLE);
      return Optional.empty();
    }
    boolean complete = true;
    for (String key : t.keySet()) {
      if (!COLD_FIELDS.contains(key)) {
        problem(
            "cold",
            "unknown field '"
                + escape(key)
                + "'; allowed: "
                + String.join(", ", sorted(COLD_FIELDS)));
        complete = false;
      }
    }
    for (String key : List.of("groups", "switch", "read")) {
      if (!t.contains(key)) {
        problem(
            "cold",
            "missing '"
                + key
                + "'; a cold device needs groups, switch and read, e.g. cold = "
                + COLD_EXAMPLE);
        complete = false;
      }
    }
    Optional<Integer> groups = optional("cold.groups", DeviceEntry::groups);
    Optional<Latency> groupSwitch = optional("cold.switch", DeviceEntry::groupSwitch);
    Optional<Bandwidth> read = optional("cold.read", DeviceEntry::bandwidth);
    Optional<Optional<GroupPolicy>> policy = optional("cold.policy", DeviceEntry::policy);
    Optional<ColdSpec.Layout> layout = optional("cold.layout", DeviceEntry::layout);
    if (!complete || groups.isEmpty() || groupSwitch.isEmpty() || read.isEmpty()) {
      return Optional.empty();
    }
    if (t.contains("policy") && policy.isEmpty() || t.contains("layout") && layout.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new ColdSpec(
            groups.get(),
            groupSwitch.get(),
            read.get(),
            policy.orElse(Optional.of(ColdSpec.DEFAULT_POLICY)),
            layout.orElse(ColdSpec.Layout.SEGMENT)));
  }

  static ColdSpec.Layout layout(Object value) {
    if (!(value instanceof String s)) {
      throw MosaicException.invalid(
          "expected a string naming how the device puts files in disk groups, like layout ="
              + " \"table\"");
    }
    return ColdSpec.Layout.parse(s);
  }

  static Optional<GroupPolicy> policy(Object value) {
    if (!(value instanceof String s)) {
      throw MosaicException.invalid(
          "expected a string naming the group scheduling policy, like policy = \"rank\"");
    }
    return ColdSpec.parsePolicy(s);
  }

  static int groups(Object value) {
    if (!(value instanceof Long l)) {
      throw MosaicException.invalid("expected a whole number of disk groups, like groups = 4");
    }
    if (l < ColdSpec.MIN_GROUPS) {
      throw MosaicException.invalid(
          "a cold device needs at least "
              + ColdSpec.MIN_GROUPS
              + " disk groups (with one it never switches): give its number of groups, or drop"
              + " cold and describe it as a warm device");
    }
    if (l > ColdSpec.MAX_GROUPS) {
      throw MosaicException.invalid(
          "at most " + ColdSpec.MAX_GROUPS + " disk groups; give the device's number of groups");
    }
    return l.intValue();
  }

  static Latency groupSwitch(Object value) {
    Latency latency = latency(value);
    if (latency.nanos() == 0) {
      throw MosaicException.invalid(
          "must be above zero (a device whose groups switch for free is not cold): give the"
              + " switch time, like \"10 s\", or drop cold");
    }
    if (latency.compareTo(ColdSpec.MAX_SWITCH) > 0) {
      throw MosaicException.invalid(
          "too long; a group switch spins disks down and up in seconds (Pelican: 8 s), at most "
              + ColdSpec.MAX_SWITCH
              + ": check the unit, like \"10 s\"");
    }
    return latency;
  }

  /** Returns whether {@code path} is a usable directory; emulated devices' are created. */
  boolean checkDirectory(Path path, boolean emulated) {
    if (!Files.exists(path)) {
      Path link = danglingLink(path);
      if (link != null) {
        problem(
            locationField,
            "bad value \""
                + path
                + "\": "
                + (link.equals(path) ? "" : "\"" + link + "\" is ")
                + "a dangling symlink (its target \""
                + linkTarget(link)
                + "\" does not exist); fix the link or remove it");
        return false;
      }
      if (!emulated) {
        problem(
            locationField,
            "bad value \""
                + path
                + "\": directory does not exist; mount the device there or fix the path");
        return false;
      }
      try {
        Files.createDirectories(path);
      } catch (IOException ex) {
        problem(
            locationField,
            "bad value \""
                + path
                + "\": cannot create the emulated device's directory ("
                + ex
                + ")");
        return false;
      }
    }
    if (!Files.isDirectory(path)) {
      problem(
          locationField,
          "bad value \"" + path + "\": not a directory; give the device's mount point");
      return false;
    }
    // Unique per call: pools loaded at once in one JVM (Trino's nodes in a test) share the pid.
    Path probe =
        path.resolve(
            ".mosaic-write-probe-"
                + ProcessHandle.current().pid()
                + "-"
                + java.util.UUID.randomUUID());
    try {
      Files.deleteIfExists(probe);
      Files.createFile(probe);
      Files.delete(probe);
      return true;
    } catch (IOException ex) {
      problem(
          locationField,
          "bad value \""
              + path
              + "\": not writable ("
              + ex.getClass().getSimpleName()
              + "); Mosaic needs to write segments there");
      return false;
    }
  }

  /** {@code path} or its nearest ancestor that is a symlink to nothing, or null if none is. */
  private static Path danglingLink(Path path) {
    for (Path p = path; p != null; p = p.getParent()) {
      if (Files.isSymbolicLink(p) && !Files.exists(p)) {
        return p;
      }
    }
    return null;
  }

  private static String linkTarget(Path link) {
    try {
      return Files.readSymbolicLink(link).toString();
    } catch (IOException ex) {
      return "?";
    }
  }

  static Path path(Path base, Object value) {
    String text = string(value);
    try {
      return base.resolve(text).normalize();
    } catch (InvalidPathException ex) {
      throw MosaicException.invalid("not a valid path (" + ex.getReason() + ")");
    }
  }

  static final String URI_EXAMPLE = "uri = \"hdfs://nn:8020/mosaic/fast\"";

  /**
   * A device folder's URI: absolute, hierarchical, with a folder of its own and nothing after it,
   * on a scheme a backend serves ({@link #served}). A {@code file:} URI is a local directory, read
   * as {@code path} is.
   */
  static URI uri(Object value) {
    String text = string(value);
    String inexact = inexact(text);
    if (inexact != null) {
      throw MosaicException.invalid(inexact + "; write the URI exactly, like " + URI_EXAMPLE);
    }
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException ex) {
      throw MosaicException.invalid(
          "not a valid URI ("
              + ex.getReason()
              + " at index "
              + ex.getIndex()
              + "); write it like "
              + URI_EXAMPLE
              + ", with special characters %-escaped");
    }
    if (uri.getScheme() == null) {
      throw MosaicException.invalid(
          "no scheme; write " + URI_EXAMPLE + ", or path = \"" + text + "\" for a local directory");
    }
    if (uri.isOpaque() || uri.getPath() == null || !uri.getPath().startsWith("/")) {
      throw MosaicException.invalid(
          "not an absolute folder URI (scheme://host:port/folder); write it like " + URI_EXAMPLE);
    }
    if (uri.getQuery() != null || uri.getFragment() != null) {
      throw MosaicException.invalid(
          "a device folder's URI has no query or fragment ('?', '#'); write it like "
              + URI_EXAMPLE);
    }
    String folder = uri.normalize().getPath().replaceAll("/+$", "");
    if (folder.isEmpty() || folder.contains("/../") || folder.endsWith("/..")) {
      throw MosaicException.invalid(
          "names no folder of its own (the root, or above it); give the device's own folder, like "
              + URI_EXAMPLE);
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("file")) {
      if (uri.getRawAuthority() != null) {
        throw MosaicException.invalid(
            "a file: URI names a local directory and has no host; write file:///mnt/nvme/mosaic,"
                + " or path = \"/mnt/nvme/mosaic\"");
      }
      return DeviceSpec.localUri(Path.of(uri));
    }
    if (uri.getRawAuthority() == null) {
      throw MosaicException.invalid(
          "names no host; write " + scheme + "://host:port/folder, like " + URI_EXAMPLE);
    }
    if (!served(scheme)) {
      throw MosaicException.invalid(
          "no storage backend serves scheme '"
              + scheme
              + "'; devices live on local directories (path, or file:) and on the file systems"
              + " Hadoop has (hdfs:, s3: with hadoop-aws, ...): fix the scheme, or put that file"
              + " system's Hadoop client on the class path");
    }
    try {
      return new URI(scheme, uri.getAuthority(), folder, null, null);
    } catch (URISyntaxException ex) {
      throw MosaicException.invalid("not a valid URI (" + ex.getReason() + ")");
    }
  }

  /**
   * Whether a backend serves {@code scheme}: S3's, which an engine's own file system may serve
   * (docs/format.md, "Storage backends"; opening the device says when none does), or a file system
   * Hadoop knows (core-site.xml aside).
   */
  private static boolean served(String scheme) {
    if (scheme.equals("s3") || scheme.equals("s3a")) {
      return true;
    }
    try {
      org.apache.hadoop.fs.FileSystem.getFileSystemClass(
          scheme, new org.apache.hadoop.conf.Configuration());
      return true;
    } catch (IOException | RuntimeException | LinkageError ex) {
      return false;
    }
  }

  /** A name written exactly, like a storage policy: a non-empty string without stray spaces. */
  static String name(Object value) {
    String s = string(value);
    String inexact = inexact(s);
    if (inexact != null) {
      throw MosaicException.invalid(inexact + "; write the name exactly, like \"ALL_SSD\"");
    }
    return s;
  }

  static String string(Object value) {
    if (!(value instanceof String s)) {
      throw MosaicException.invalid("expected a quoted string");
    }
    if (s.isBlank()) {
      throw MosaicException.invalid("must not be empty");
    }
    return s;
  }

  static ByteSize size(Object value) {
    return ByteSize.parse(quantityText(value, "60 GB"));
  }

  static Bandwidth bandwidth(Object value) {
    return Bandwidth.parse(quantityText(value, "1.2 GB/s"));
  }

  static Latency latency(Object value) {
    if (value instanceof Long l && l == 0) {
      return Latency.ZERO;
    }
    return Latency.parse(quantityText(value, "8 ms"));
  }

  static Cost cost(Object value) {
    if (value instanceof Double d && !Double.isFinite(d)) {
      throw MosaicException.invalid("not a finite number; write a price like \"60 ct\"");
    }
    if (value instanceof Long || value instanceof Double) {
      return Cost.parse(value.toString());
    }
    return Cost.parse(quantityText(value, "60 ct"));
  }

  static int threads(Object value) {
    if (!(value instanceof Long l) || l < 1 || l > 1024) {
      throw MosaicException.invalid(
          "expected a whole number of reader threads from 1 to 1024, like 8 (1 for an HDD)");
    }
    return l.intValue();
  }

  static Codec codec(Object value) {
    if (!(value instanceof String s)) {
      throw MosaicException.invalid("expected a quoted codec name; allowed: " + Codec.allowed());
    }
    String inexact = inexact(s);
    if (inexact != null) {
      throw MosaicException.invalid(
          inexact
              + "; allowed: "
              + Codec.allowed()
              + ", written exactly, without spaces or control characters");
    }
    return Codec.fromConfigName(s)
        .orElseThrow(() -> MosaicException.invalid("unknown codec; allowed: " + Codec.allowed()));
  }

  /**
   * Why {@code s} is not written exactly as a name (a control character, leading or trailing
   * whitespace), or null if it is. Such values are refused, not trimmed: a stray byte in the file
   * is a mistake the user should see.
   */
  static String inexact(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isISOControl(s.charAt(i))) {
        return String.format(
            Locale.ROOT, "contains the control character U+%04X", (int) s.charAt(i));
      }
    }
    boolean leading = !s.isEmpty() && isSpace(s.charAt(0));
    boolean trailing = !s.isEmpty() && isSpace(s.charAt(s.length() - 1));
    if (leading && trailing) {
      return "leading and trailing whitespace";
    }
    if (leading || trailing) {
      return (leading ? "leading" : "trailing") + " whitespace";
    }
    return null;
  }

  private static boolean isSpace(char c) {
    return Character.isWhitespace(c) || Character.isSpaceChar(c);
  }

  static boolean bool(Object value) {
    if (!(value instanceof Boolean b)) {
      throw MosaicException.invalid("expected true or false");
    }
    return b;
  }

  private static String quantityText(Object value, String example) {
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof Long || value instanceof Double) {
      throw MosaicException.invalid(
          "a number needs a unit; write it as a string like \"" + example + "\"");
    }
    throw MosaicException.invalid("expected a string like \"" + example + "\"");
  }
}
