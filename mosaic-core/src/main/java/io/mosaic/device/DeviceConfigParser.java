package io.mosaic.device;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.tomlj.Toml;
import org.tomlj.TomlArray;
import org.tomlj.TomlParseError;
import org.tomlj.TomlParseResult;
import org.tomlj.TomlTable;

/**
 * Reads {@code devices.toml} (the installed pool, paper Figure 3a) and device catalogues (devices
 * one could buy, for budget mode). Every problem of a file is collected and reported together, each
 * naming file, line, device, field, bad value and what is allowed.
 *
 * <p>Both formats share the rules of the fields they have in common: ids are strings of {@code ID}
 * (or device numbers 0, 1, ... as in the paper's Figure 3a), sizes, rates, latencies and costs stay
 * within the ranges their types' {@code parse} methods enforce, and a codec is written exactly,
 * without surrounding spaces or control characters.
 */
public final class DeviceConfigParser {
  static final Set<String> POOL_FIELDS =
      Set.of(
          "id",
          "name",
          "path",
          "capacity",
          "threads",
          "codec",
          "cost_per_gb",
          "seek",
          "metadata",
          "emulate");
  static final Set<String> CATALOG_FIELDS =
      Set.of("id", "name", "read", "seek", "threads", "codec", "cost_per_gb", "source");
  private static final Map<String, String> EXAMPLES =
      Map.of(
          "id", "id = \"nvme\"",
          "path", "path = \"/mnt/nvme/mosaic\"",
          "capacity", "capacity = \"60 GB\"",
          "threads", "threads = 8",
          "codec", "codec = \"zstd\" (none, lz4 or zstd)",
          "cost_per_gb", "cost_per_gb = \"60 ct\"",
          "read", "read = \"1.2 GB/s\"",
          "source", "source = \"vendor data sheet, 2026\"");
  private static final Set<String> EMULATE_FIELDS = Set.of("read", "seek");
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]+");

  private final Path file;
  private final List<ConfigProblem> problems = new ArrayList<>();

  private DeviceConfigParser(Path file) {
    this.file = file;
  }

  /** Parses and validates an installed pool; device paths must exist and be writable. */
  public static List<DeviceSpec> parsePool(Path file) {
    DeviceConfigParser parser = new DeviceConfigParser(file);
    return parser.finish(parser.pool(parser.read(readFile(file))));
  }

  /** Parses a catalogue of devices to buy from a file. */
  public static List<CatalogDevice> parseCatalog(Path file) {
    DeviceConfigParser parser = new DeviceConfigParser(file);
    return parser.finish(parser.catalog(parser.read(readFile(file))));
  }

  /** Parses a catalogue from text; {@code name} stands for the file in messages. */
  public static List<CatalogDevice> parseCatalog(String name, String text) {
    DeviceConfigParser parser = new DeviceConfigParser(Path.of(name));
    return parser.finish(parser.catalog(parser.read(text)));
  }

  private static String readFile(Path file) {
    try {
      return new String(
          MetadataFiles.read(file, MetadataFiles.CONFIG_LIMIT, "device configuration"),
          java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new DeviceConfigException(
          List.of(
              new ConfigProblem(
                  file,
                  0,
                  null,
                  null,
                  "cannot read the device configuration ("
                      + e.getClass().getSimpleName()
                      + ": "
                      + e.getMessage()
                      + "); check the path given with --devices")));
    }
  }

  private <T> List<T> finish(List<T> result) {
    if (!problems.isEmpty()) {
      throw new DeviceConfigException(problems);
    }
    return result;
  }

  private TomlArray read(String text) {
    TomlParseResult toml = Toml.parse(text);
    for (TomlParseError error : toml.errors()) {
      problems.add(
          new ConfigProblem(
              file, error.position().line(), null, null, "not valid TOML: " + error.getMessage()));
    }
    if (toml.hasErrors()) {
      return null;
    }
    for (String key : toml.keySet()) {
      if (!key.equals("device")) {
        problems.add(
            new ConfigProblem(
                file,
                toml.inputPositionOf(key).line(),
                null,
                key,
                "unknown top-level entry; a device file holds only [[device]] tables"));
      }
    }
    if (!toml.isArray("device") || toml.getArray("device").isEmpty()) {
      problems.add(
          new ConfigProblem(
              file,
              0,
              null,
              null,
              "no devices: add one [[device]] table per device (see docs/configuration.md)"));
      return null;
    }
    TomlArray devices = toml.getArray("device");
    if (!allTables(devices)) {
      problems.add(
          new ConfigProblem(
              file,
              toml.inputPositionOf("device").line(),
              null,
              "device",
              "must be a list of tables, written [[device]]"));
      return null;
    }
    return devices;
  }

  private List<DeviceSpec> pool(TomlArray devices) {
    List<DeviceSpec> specs = new ArrayList<>();
    if (devices == null) {
      return specs;
    }
    Path base = file.toAbsolutePath().getParent();
    Map<String, Integer> idLines = new HashMap<>();
    Map<Path, String> pathOwners = new HashMap<>();
    List<Usable> usable = new ArrayList<>();
    String metadataId = null;
    int metadataLine = 0;
    for (int i = 0; i < devices.size(); i++) {
      Entry e = new Entry(devices.getTable(i), devices.inputPositionOf(i).line(), POOL_FIELDS);
      String id = e.id();
      uniqueId(e, id, idLines);
      String name = e.optional("name", Entry::string).orElse(id);
      Optional<Emulation> emulation = e.optional("emulate", e::emulation);
      Path path = e.required("path", v -> Entry.path(base, v)).orElse(null);
      // A broken emulate table is reported on its own; the directory is still an emulated one.
      if (path != null && e.checkDirectory(path, e.table.contains("emulate"))) {
        String owner = pathOwners.putIfAbsent(path, id);
        if (owner != null) {
          e.problem("path", "same directory as device '" + owner + "'; give each device its own");
        } else if (id != null) {
          try {
            usable.add(new Usable(e, id, path, path.toRealPath()));
          } catch (IOException ex) {
            e.problem("path", "bad value \"" + path + "\": cannot resolve it (" + ex + ")");
          }
        }
      }
      ByteSize capacity = e.required("capacity", Entry::size).orElse(null);
      if (capacity != null && capacity.bytes() == 0) {
        e.problem("capacity", "bad value \"" + capacity + "\": must be greater than zero");
      }
      int threads = e.required("threads", Entry::threads).orElse(1);
      Codec codec = e.required("codec", Entry::codec).orElse(Codec.NONE);
      Cost cost = e.required("cost_per_gb", Entry::cost).orElse(Cost.ofCents(0));
      Latency seek = e.optional("seek", Entry::latency).orElse(Latency.ZERO);
      boolean metadata = e.optional("metadata", Entry::bool).orElse(false);
      if (metadata) {
        if (metadataId != null) {
          e.problem(
              "metadata",
              "bad value true: device '"
                  + metadataId
                  + "' (line "
                  + metadataLine
                  + ") is already the metadata device; mark exactly one device with metadata = true");
        } else {
          metadataId = id;
          metadataLine = e.line("metadata");
        }
      }
      specs.add(
          new DeviceSpec(
              id, name, path, capacity, threads, codec, cost, seek, metadata, emulation));
    }
    checkIdentities(usable);
    return specs;
  }

  /** A device whose directory exists, with its path once symlinks are followed. */
  private record Usable(Entry entry, String id, Path path, Path real) {}

  /**
   * Device directories must be distinct and must not nest once symlinks are followed (gc walks a
   * device's directories: it would take another device's files for its own), and a directory marked
   * as another device ({@link DeviceMarker}) cannot be this one: a device cannot be renamed, since
   * manifests name devices by id.
   */
  private void checkIdentities(List<Usable> usable) {
    List<Usable> distinct = new ArrayList<>();
    for (Usable u : usable) {
      Usable clash = null;
      for (Usable other : distinct) {
        if (u.real().startsWith(other.real()) || other.real().startsWith(u.real())) {
          clash = other;
          break;
        }
      }
      if (clash == null) {
        distinct.add(u);
        continue;
      }
      String where =
          u.real().equals(clash.real())
              ? "the same directory as device '"
                  + clash.id()
                  + "' (\""
                  + clash.path()
                  + "\") once symlinks are followed: both are \""
                  + u.real()
                  + "\""
              : u.real().startsWith(clash.real())
                  ? "inside the directory of device '"
                      + clash.id()
                      + "' (\""
                      + clash.real()
                      + "\"), as \""
                      + u.real()
                      + "\""
                  : "holds the directory of device '"
                      + clash.id()
                      + "' (\""
                      + clash.real()
                      + "\"), as \""
                      + u.real()
                      + "\"";
      u.entry()
          .problem(
              "path",
              "bad value \""
                  + u.path()
                  + "\": "
                  + where
                  + "; device directories must be distinct and must not nest (gc would take one"
                  + " device's files for the other's): give each device its own directory");
    }
    for (Usable u : distinct) {
      DeviceMarker.Identity marked;
      try {
        marked = DeviceMarker.read(u.path());
      } catch (IOException ex) {
        u.entry()
            .problem(
                "path",
                "bad value \""
                    + u.path()
                    + "\": its device marker cannot be read ("
                    + ex.getMessage()
                    + "); if this directory is device '"
                    + u.id()
                    + "', delete "
                    + DeviceMarker.file(u.path())
                    + " and it is written anew");
        continue;
      }
      if (marked != null && !marked.id().equals(u.id())) {
        u.entry()
            .problem(
                "id",
                "bad value \""
                    + u.id()
                    + "\": directory \""
                    + u.path()
                    + "\" is device '"
                    + marked.id()
                    + "' (its marker "
                    + DeviceMarker.file(u.path())
                    + " records "
                    + marked
                    + "). Manifests name devices by id, so a device cannot be renamed: set id = \""
                    + marked.id()
                    + "\" again. If the directory is no longer that device, move its files away"
                    + " and delete the marker");
      }
    }
  }

  private List<CatalogDevice> catalog(TomlArray devices) {
    List<CatalogDevice> entries = new ArrayList<>();
    if (devices == null) {
      return entries;
    }
    Map<String, Integer> idLines = new HashMap<>();
    for (int i = 0; i < devices.size(); i++) {
      Entry e = new Entry(devices.getTable(i), devices.inputPositionOf(i).line(), CATALOG_FIELDS);
      String id = e.id();
      uniqueId(e, id, idLines);
      entries.add(
          new CatalogDevice(
              id,
              e.optional("name", Entry::string).orElse(id),
              e.required("read", Entry::bandwidth).orElse(null),
              e.optional("seek", Entry::latency).orElse(Latency.ZERO),
              e.optional("threads", Entry::threads).orElse(1),
              e.required("codec", Entry::codec).orElse(Codec.NONE),
              e.required("cost_per_gb", Entry::cost).orElse(Cost.ofCents(0)),
              e.required("source", Entry::string).orElse("")));
    }
    return entries;
  }

  private static void uniqueId(Entry e, String id, Map<String, Integer> idLines) {
    if (id == null) {
      return;
    }
    Integer first = idLines.putIfAbsent(id, e.line("id"));
    if (first != null) {
      e.problem(
          "id",
          "bad value \""
              + id
              + "\": duplicate id, also used on line "
              + first
              + "; ids must be unique");
    }
  }

  /** One {@code [[device]]} table being read; problems go to the parser's list. */
  private final class Entry {
    private final TomlTable table;
    private final int headerLine;
    private String device;

    Entry(TomlTable table, int headerLine, Set<String> allowed) {
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
                  throw MosaicException.invalid(
                      "ids may use only letters, digits, '-', '_' and '.'");
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

    /** Returns whether {@code path} is a usable directory; emulated devices' are created. */
    boolean checkDirectory(Path path, boolean emulated) {
      if (!Files.exists(path)) {
        Path link = danglingLink(path);
        if (link != null) {
          problem(
              "path",
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
              "path",
              "bad value \""
                  + path
                  + "\": directory does not exist; mount the device there or fix the path");
          return false;
        }
        try {
          Files.createDirectories(path);
        } catch (IOException ex) {
          problem(
              "path",
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
            "path", "bad value \"" + path + "\": not a directory; give the device's mount point");
        return false;
      }
      Path probe = path.resolve(".mosaic-write-probe-" + ProcessHandle.current().pid());
      try {
        Files.deleteIfExists(probe);
        Files.createFile(probe);
        Files.delete(probe);
        return true;
      } catch (IOException ex) {
        problem(
            "path",
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

  static boolean allTables(TomlArray array) {
    for (int i = 0; i < array.size(); i++) {
      if (!array.isTable(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code s} with control characters, backslashes and quotes escaped as in a TOML string, so a
   * message shows a stray NUL or newline instead of printing it.
   */
  static String escape(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '"' -> sb.append("\\\"");
        case '\t' -> sb.append("\\t");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        default -> {
          if (Character.isISOControl(c)) {
            sb.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.toString();
  }

  private static List<String> sorted(Set<String> fields) {
    return fields.stream().sorted().toList();
  }

  private static String literal(Object value) {
    if (value instanceof String s) {
      return "\"" + escape(s) + "\"";
    }
    if (value instanceof TomlTable t) {
      return "{ "
          + String.join(", ", t.keySet().stream().map(k -> k + " = " + literal(t.get(k))).toList())
          + " }";
    }
    return String.valueOf(value);
  }
}
