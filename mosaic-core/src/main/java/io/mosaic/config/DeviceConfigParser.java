package io.mosaic.config;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
          "uri",
          "storage_policy",
          "storage_class",
          "capacity",
          "threads",
          "codec",
          "cost_per_gb",
          "seek",
          "metadata",
          "emulate",
          "cold",
          "link");
  static final Set<String> CATALOG_FIELDS =
      Set.of(
          "id",
          "name",
          "read",
          "stream",
          "seek",
          "threads",
          "codec",
          "cost_per_gb",
          "cost_per_gb_month",
          "cost_per_1000_requests",
          "cost_per_gb_retrieved",
          "source",
          "cold",
          "link");
  static final Map<String, String> EXAMPLES =
      Map.of(
          "id", "id = \"nvme\"",
          "path",
              "path = \"/mnt/nvme/mosaic\" (a local directory) or uri ="
                  + " \"hdfs://nn:8020/mosaic/fast\" (a folder on HDFS)",
          "capacity", "capacity = \"60 GB\"",
          "threads", "threads = 8",
          "codec", "codec = \"zstd\" (none, lz4 or zstd)",
          "cost_per_gb", "cost_per_gb = \"60 ct\"",
          "read", "read = \"1.2 GB/s\"",
          "source", "source = \"vendor data sheet, 2026\"");
  static final Set<String> LINK_FIELDS = Set.of("id", "read");
  static final String LINK_EXAMPLE = "[[link]] id = \"network\" read = \"1.5 GB/s\"";
  static final Set<String> EMULATE_FIELDS = Set.of("read", "seek");
  static final Set<String> COLD_FIELDS = Set.of("groups", "switch", "read", "policy", "layout");
  static final String COLD_EXAMPLE = "{ groups = 4, switch = \"10 s\", read = \"100 MB/s\" }";
  static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]+");

  private final Path file;
  private final List<ConfigProblem> problems = new ArrayList<>();
  // The file's [[link]] tables by id: paths to the host that devices share (Link).
  private final Map<String, Link> links = new HashMap<>();

  private DeviceConfigParser(Path file) {
    this.file = file;
  }

  /**
   * The S3 storage class of a device on S3, checked: one whose objects a GET reads at once. The
   * archive classes need a restore of days before any read, which a scan cannot wait for.
   */
  private static Optional<String> storageClass(DeviceEntry e, URI location, String value) {
    String scheme = location == null ? null : location.getScheme();
    if (!"s3".equals(scheme) && !"s3a".equals(scheme)) {
      e.problem(
          "storage_class",
          "bad value \""
              + value
              + "\": storage classes are S3's; remove storage_class, or put the device on S3 with"
              + " uri = \"s3://bucket/mosaic/fast\"");
      return Optional.empty();
    }
    String upper = value.toUpperCase(java.util.Locale.ROOT);
    if (io.mosaic.storage.S3StorageClasses.ARCHIVE.contains(upper)) {
      e.problem(
          "storage_class",
          "bad value \""
              + value
              + "\": S3 must restore an object of this class before any read (hours to days), so"
              + " no scan could read the device; use one of "
              + String.join(", ", io.mosaic.storage.S3StorageClasses.READABLE)
              + " (EXPRESS_ONEZONE in a directory bucket of its own), e.g. GLACIER_IR for cold"
              + " data read in milliseconds");
      return Optional.empty();
    }
    if (!io.mosaic.storage.S3StorageClasses.READABLE.contains(upper)) {
      e.problem(
          "storage_class",
          "bad value \""
              + value
              + "\": not an S3 storage class a device can use; use one of "
              + String.join(", ", io.mosaic.storage.S3StorageClasses.READABLE));
      return Optional.empty();
    }
    return Optional.of(upper);
  }

  /** Parses and validates an installed pool; device paths must exist and be writable. */
  public static List<DeviceSpec> parsePool(Path file) {
    DeviceConfigParser parser = new DeviceConfigParser(file);
    return parser.finish(parser.pool(parser.read(readFile(file))));
  }

  /** Parses a catalogue of devices to buy from a file. */
  static List<CatalogDevice> parseCatalog(Path file) {
    DeviceConfigParser parser = new DeviceConfigParser(file);
    return parser.finish(parser.catalog(parser.read(readFile(file))));
  }

  /** Parses a catalogue from text; {@code name} stands for the file in messages. */
  static List<CatalogDevice> parseCatalog(String name, String text) {
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
                      + "); check the path of the device configuration")));
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
      if (!key.equals("device") && !key.equals("link")) {
        problems.add(
            new ConfigProblem(
                file,
                toml.inputPositionOf(key).line(),
                null,
                key,
                "unknown top-level entry; a device file holds only [[device]] and [[link]]"
                    + " tables"));
      }
    }
    if (toml.contains("link")) {
      readLinks(toml);
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

  /**
   * The {@code [[link]]} tables: each a path to the host that the devices naming it share, with its
   * rate ({@link Link}, docs/configuration.md).
   */
  private void readLinks(TomlParseResult toml) {
    int line = toml.inputPositionOf("link").line();
    if (!toml.isArray("link") || !allTables(toml.getArray("link"))) {
      problems.add(
          new ConfigProblem(
              file, line, null, "link", "must be a list of tables, written " + LINK_EXAMPLE));
      return;
    }
    TomlArray array = toml.getArray("link");
    for (int i = 0; i < array.size(); i++) {
      TomlTable table = array.getTable(i);
      int at = array.inputPositionOf(i).line();
      String id = table.isString("id") ? table.getString("id") : null;
      for (String key : table.keySet()) {
        if (!LINK_FIELDS.contains(key)) {
          problems.add(
              new ConfigProblem(
                  file,
                  table.inputPositionOf(key).line(),
                  null,
                  "link." + key,
                  "unknown field of link " + literal(id) + "; allowed: id, read"));
        }
      }
      if (id == null || !ID.matcher(id).matches()) {
        problems.add(
            new ConfigProblem(
                file,
                at,
                null,
                "link.id",
                (id == null ? "missing or not a string" : "bad value " + literal(id))
                    + ": every [[link]] needs an id of letters, digits, '-', '_' and '.', like"
                    + " id = \"network\""));
        continue;
      }
      Object read = table.get("read");
      Bandwidth rate;
      try {
        if (!(read instanceof String text)) {
          throw MosaicException.invalid(
              "expected a rate like read = \"1.5 GB/s\" (all its devices together)");
        }
        rate = Bandwidth.parse(text);
      } catch (IllegalArgumentException | MosaicException ex) {
        problems.add(
            new ConfigProblem(
                file,
                read == null ? at : table.inputPositionOf("read").line(),
                null,
                "link.read",
                (read == null ? "missing" : "bad value " + literal(read))
                    + " for link \""
                    + escape(id)
                    + "\": "
                    + ex.getMessage()));
        continue;
      }
      if (links.putIfAbsent(id, new Link(id, rate)) != null) {
        problems.add(
            new ConfigProblem(
                file,
                at,
                null,
                "link.id",
                "bad value \"" + escape(id) + "\": duplicate link id; ids must be unique"));
      }
    }
  }

  /** The link a device names in {@code link = "..."}, which a [[link]] table must declare. */
  private Optional<Link> link(DeviceEntry e) {
    return e.optional(
        "link",
        v -> {
          String id = DeviceEntry.string(v);
          Link link = links.get(id);
          if (link == null) {
            throw MosaicException.invalid(
                "no [[link]] has this id"
                    + (links.isEmpty()
                        ? "; declare it, like " + LINK_EXAMPLE
                        : "; links: " + String.join(", ", sorted(links.keySet())))
                    + ", or remove link");
          }
          return link;
        });
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
    List<Remote> remote = new ArrayList<>();
    String metadataId = null;
    int metadataLine = 0;
    DeviceEntry first = null;
    for (int i = 0; i < devices.size(); i++) {
      DeviceEntry e =
          new DeviceEntry(
              file, problems, devices.getTable(i), devices.inputPositionOf(i).line(), POOL_FIELDS);
      String id = e.id();
      uniqueId(e, id, idLines);
      String name = e.optional("name", DeviceEntry::string).orElse(id);
      Optional<Emulation> emulation = e.optional("emulate", e::emulation);
      boolean isCold = e.table.contains("cold");
      Optional<ColdSpec> cold = e.cold();
      if (isCold && e.table.contains("emulate")) {
        e.problem(
            "emulate",
            "bad value "
                + literal(e.table.get("emulate"))
                + ": a cold device is emulated by its cold table (read: the active group's rate,"
                + " switch: the group switch); remove emulate");
      }
      URI location = location(e, base);
      Path path =
          location != null && "file".equals(location.getScheme()) ? Path.of(location) : null;
      if (location != null && path == null) {
        remote.add(new Remote(e, id, location));
      }
      Optional<String> storagePolicy = e.optional("storage_policy", DeviceEntry::name);
      if (storagePolicy.isPresent() && path != null) {
        e.problem(
            "storage_policy",
            "bad value "
                + literal(e.table.get("storage_policy"))
                + ": the device is a local directory, which has no storage policies; remove"
                + " storage_policy, or put the device on HDFS with uri ="
                + " \"hdfs://nn:8020/mosaic/fast\"");
      }
      Optional<String> storageClass = e.optional("storage_class", DeviceEntry::name);
      if (storageClass.isPresent()) {
        storageClass = storageClass(e, location, storageClass.get());
      }
      // A broken emulate or cold table is reported on its own; the directory is still emulated.
      if (path != null && e.checkDirectory(path, e.table.contains("emulate") || isCold)) {
        String owner = pathOwners.putIfAbsent(path, id);
        if (owner != null) {
          e.problem(
              e.locationField,
              "same directory as device '" + owner + "'; give each device its own");
        } else if (id != null) {
          try {
            usable.add(new Usable(e, id, path, path.toRealPath()));
          } catch (IOException ex) {
            e.problem(
                e.locationField, "bad value \"" + path + "\": cannot resolve it (" + ex + ")");
          }
        }
      }
      // A folder on a storage with quotas may take its capacity from the quota (DevicePool).
      ByteSize capacity =
          (location == null || path != null
                  ? e.required("capacity", DeviceEntry::size)
                  : e.optional("capacity", DeviceEntry::size))
              .orElse(null);
      if (capacity != null && capacity.bytes() == 0) {
        e.problem("capacity", "bad value \"" + capacity + "\": must be greater than zero");
      }
      int threads = e.required("threads", DeviceEntry::threads).orElse(1);
      Codec codec = e.required("codec", DeviceEntry::codec).orElse(Codec.NONE);
      Cost cost = e.required("cost_per_gb", DeviceEntry::cost).orElse(Cost.ofCents(0));
      Latency seek = e.optional("seek", DeviceEntry::latency).orElse(Latency.ZERO);
      boolean metadata = e.optional("metadata", DeviceEntry::bool).orElse(false);
      if (metadata && isCold) {
        e.problem(
            "metadata",
            "bad value true: a cold device cannot hold table metadata (manifests, traces and the"
                + " device model are read by every query, each read could wait for a group"
                + " switch); mark a warm device (one without cold) metadata = true");
      } else if (metadata) {
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
      if (first == null) {
        first = e;
      }
      specs.add(
          new DeviceSpec(
              id,
              name,
              location == null ? URI.create("file:///") : location,
              capacity,
              threads,
              codec,
              cost,
              seek,
              metadata,
              emulation,
              cold,
              storagePolicy,
              storageClass,
              link(e)));
    }
    if (metadataId == null && first != null && first.table.contains("cold")) {
      first.problem(
          "metadata",
          "no device sets metadata = true, so the first device listed would hold table metadata,"
              + " but it is cold (a group switch could stall every query); mark a warm device"
              + " (one without cold) metadata = true, adding one if the pool has none");
    }
    checkIdentities(usable);
    checkDistinct(remote);
    return specs;
  }

  /**
   * The device's folder from {@code path} or {@code uri}, exactly one of which it has; a local
   * directory as a {@code file:} URI of its normalized absolute path. Null when wrong (reported).
   */
  private URI location(DeviceEntry e, Path base) {
    boolean hasPath = e.table.contains("path");
    boolean hasUri = e.table.contains("uri");
    if (hasPath && hasUri) {
      e.problem(
          "uri",
          "bad value "
              + literal(e.table.get("uri"))
              + ": the device also has path = "
              + literal(e.table.get("path"))
              + "; give either path (a local directory) or uri (a folder on a storage), not both");
      return null;
    }
    if (hasUri) {
      e.locationField = "uri";
      return e.optional("uri", DeviceEntry::uri).orElse(null);
    }
    return e.required("path", v -> DeviceEntry.path(base, v))
        .map(DeviceSpec::localUri)
        .orElse(null);
  }

  /** A device whose folder is on a remote storage, checked when the pool is loaded. */
  private record Remote(DeviceEntry entry, String id, URI location) {}

  /**
   * Folders of devices on remote storages must be distinct and must not nest, for the reason {@link
   * #checkIdentities} gives; their markers are read when the pool connects (DevicePool).
   */
  private static void checkDistinct(List<Remote> remote) {
    for (int i = 0; i < remote.size(); i++) {
      Remote u = remote.get(i);
      String mine = u.location().toString() + "/";
      for (Remote other : remote.subList(0, i)) {
        String theirs = other.location().toString() + "/";
        if (mine.startsWith(theirs) || theirs.startsWith(mine)) {
          u.entry()
              .problem(
                  "uri",
                  "bad value \""
                      + u.location()
                      + "\": "
                      + (mine.equals(theirs) ? "the same folder as" : "nests with the folder of")
                      + " device '"
                      + other.id()
                      + "' (\""
                      + other.location()
                      + "\"); device folders must be distinct and must not nest (gc would take"
                      + " one device's files for the other's): give each device its own folder");
          break;
        }
      }
    }
  }

  /** A device whose directory exists, with its path once symlinks are followed. */
  private record Usable(DeviceEntry entry, String id, Path path, Path real) {}

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
              u.entry().locationField,
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
                u.entry().locationField,
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
      DeviceEntry e =
          new DeviceEntry(
              file,
              problems,
              devices.getTable(i),
              devices.inputPositionOf(i).line(),
              CATALOG_FIELDS);
      String id = e.id();
      uniqueId(e, id, idLines);
      String name = e.optional("name", DeviceEntry::string).orElse(id);
      Optional<Bandwidth> rate = readRate(e);
      Latency seek = e.optional("seek", DeviceEntry::latency).orElse(Latency.ZERO);
      int threads = e.optional("threads", DeviceEntry::threads).orElse(1);
      Codec codec = e.required("codec", DeviceEntry::codec).orElse(Codec.NONE);
      boolean monthly = e.table.contains("cost_per_gb_month");
      Cost storage;
      if (monthly && e.table.contains("cost_per_gb")) {
        e.problem(
            "cost_per_gb_month",
            "the device also has cost_per_gb; give one price per GB: cost_per_gb (paid once) or"
                + " cost_per_gb_month (billed monthly)");
        storage = Cost.ofCents(0);
      } else if (monthly) {
        storage = e.optional("cost_per_gb_month", DeviceEntry::cost).orElse(Cost.ofCents(0));
      } else {
        storage = e.required("cost_per_gb", DeviceEntry::cost).orElse(Cost.ofCents(0));
      }
      AccessPrice access =
          new AccessPrice(
              e.optional("cost_per_1000_requests", DeviceEntry::cost).orElse(Cost.ofCents(0)),
              e.optional("cost_per_gb_retrieved", DeviceEntry::cost).orElse(Cost.ofCents(0)));
      if (!monthly && !access.free()) {
        String field =
            e.table.contains("cost_per_1000_requests")
                ? "cost_per_1000_requests"
                : "cost_per_gb_retrieved";
        e.problem(
            field,
            "requests and retrieval are billed per month, so the device's storage must be too:"
                + " write its price as cost_per_gb_month instead of cost_per_gb");
        access = AccessPrice.NONE;
      }
      // An object store's rate: one stream's, times the streams its reader threads keep open.
      Bandwidth read =
          rate.map(
                  r -> e.table.contains("stream") ? new Bandwidth(r.bytesPerSecond() * threads) : r)
              .orElse(null);
      // An object store's threads wait their GETs' first bytes side by side, so a scan's k column
      // reads wait k / threads of them (docs/cost-model.md, "First bytes that overlap").
      Latency charged = e.table.contains("stream") ? new Latency(seek.nanos() / threads) : seek;
      entries.add(
          new CatalogDevice(
              id,
              name,
              read,
              charged,
              threads,
              codec,
              storage,
              e.required("source", DeviceEntry::string).orElse(""),
              e.cold(),
              monthly,
              access,
              link(e)));
    }
    return entries;
  }

  /**
   * The device's read rate as written: {@code read}, or for an object store the rate of one stream
   * ({@code stream}), which the device reads {@code threads} of at once.
   */
  private static Optional<Bandwidth> readRate(DeviceEntry e) {
    if (!e.table.contains("stream")) {
      return e.required("read", DeviceEntry::bandwidth);
    }
    if (e.table.contains("read")) {
      e.problem(
          "stream",
          "the device also has read; give read (the device's rate) or stream (the rate of one"
              + " of its threads' streams, as for an object store), not both");
      return Optional.empty();
    }
    return e.optional("stream", DeviceEntry::bandwidth);
  }

  private static void uniqueId(DeviceEntry e, String id, Map<String, Integer> idLines) {
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

  public static boolean allTables(TomlArray array) {
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

  static List<String> sorted(Set<String> fields) {
    return fields.stream().sorted().toList();
  }

  static String literal(Object value) {
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
