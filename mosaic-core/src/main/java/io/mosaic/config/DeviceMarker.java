package io.mosaic.config;

import io.mosaic.storage.LocalStorage;
import io.mosaic.storage.Storage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The marker file in a device's root directory ({@value #FILE}): which device of a pool the
 * directory is, as a device id and a random UUID, written the first time a pool uses the directory
 * (docs/format.md, "Devices, owners and what gc refuses"). Manifests name devices by id, so a
 * directory whose marker records another id (a device renamed in {@code devices.toml}, or a path
 * that is another device's directory under a second name) is refused instead of being treated as a
 * device whose files no manifest refers to.
 */
public final class DeviceMarker {
  /** Name of the marker in a device root. */
  public static final String FILE = ".mosaic-device";

  private static final long LIMIT = 4096;
  private static final Pattern UUID_SHAPE =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private DeviceMarker() {}

  /** What a marker records. */
  public record Identity(String id, String uuid) {
    @Override
    public String toString() {
      return "id '" + id + "', uuid " + uuid;
    }
  }

  /** The marker file of a device root. */
  public static Path file(Path root) {
    return root.resolve(FILE);
  }

  /** The identity recorded in {@code root}, or null if it has no marker; damaged: IOException. */
  public static Identity read(Path root) throws IOException {
    return read(new LocalStorage(root));
  }

  /**
   * The identity recorded in the root of {@code storage} (a device's folder), or null if it has no
   * marker; damaged: IOException.
   */
  public static Identity read(Storage storage) throws IOException {
    Optional<Storage.FileStatus> status = storage.stat(FILE);
    if (status.isEmpty()) {
      return null;
    }
    String where = where(storage);
    if (status.get().folder()) {
      throw new IOException(where + " is not a regular file");
    }
    if (status.get().length() > LIMIT) {
      throw new IOException(
          where + " is " + status.get().length() + " bytes, more than a device marker can be");
    }
    ByteBuffer bytes = ByteBuffer.allocate((int) status.get().length());
    try (Storage.ReadFile file = storage.open(FILE)) {
      file.readFully(bytes, 0);
    }
    String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
    String id = null;
    String uuid = null;
    for (String line : text.split("\n")) {
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      int eq = l.indexOf('=');
      if (eq > 0) {
        String key = l.substring(0, eq).strip();
        String value = l.substring(eq + 1).strip();
        if (key.equals("id")) {
          id = value;
        } else if (key.equals("uuid")) {
          uuid = value;
        }
      }
    }
    if (id == null || id.isEmpty() || uuid == null || !UUID_SHAPE.matcher(uuid).matches()) {
      throw new IOException(
          where
              + " is damaged: a device marker holds the lines id = <device id> and uuid = <uuid>");
    }
    return new Identity(id, uuid);
  }

  /** The marker of a device's folder, for messages: a local file's path, else its URI. */
  public static String where(Storage storage) {
    if (storage instanceof LocalStorage local) {
      return local.path(FILE).toString();
    }
    String root = storage.root().toString();
    return root + (root.endsWith("/") ? "" : "/") + FILE;
  }

  /** As {@link #ensure(Storage, String)} for a local directory. */
  public static Identity ensure(Path root, String id) throws IOException {
    return ensure(new LocalStorage(root), id);
  }

  /**
   * Records {@code id} in the root of {@code storage} unless a marker is there already (exclusive
   * create, safe against other processes doing the same); returns the identity the folder has now,
   * which names another id if the folder is another device's.
   */
  public static Identity ensure(Storage storage, String id) throws IOException {
    for (int attempt = 0; attempt < 3; attempt++) {
      Identity existing = read(storage);
      if (existing != null) {
        return existing;
      }
      Identity created = new Identity(id, UUID.randomUUID().toString());
      String text =
          "# Mosaic device marker (docs/format.md): this directory is device '"
              + id
              + "' of a Mosaic pool.\n"
              + "# Manifests name devices by id: keep this file, and never copy it to another"
              + " device.\n"
              + "id = "
              + created.id()
              + "\nuuid = "
              + created.uuid()
              + "\n";
      try {
        storage.createExclusive(FILE, text.getBytes(StandardCharsets.UTF_8));
        return created;
      } catch (FileAlreadyExistsException e) {
        // another process marked the folder first: use its marker
      }
    }
    return read(storage);
  }
}
