package io.mosaic.config;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
    Path file = file(root);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(file + " is not a regular file");
    }
    String text =
        new String(MetadataFiles.read(file, LIMIT, "device marker"), StandardCharsets.UTF_8);
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
          file + " is damaged: a device marker holds the lines id = <device id> and uuid = <uuid>");
    }
    return new Identity(id, uuid);
  }

  /**
   * Records {@code id} in {@code root} unless a marker is there already (create-if-absent, safe
   * against other processes doing the same); returns the identity the directory has now, which
   * names another id if the directory is another device's.
   */
  public static Identity ensure(Path root, String id) throws IOException {
    for (int attempt = 0; attempt < 3; attempt++) {
      Identity existing = read(root);
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
      Path tmp =
          root.resolve(FILE + ".tmp-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID());
      try {
        try (FileChannel ch =
            FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
          ch.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
          ch.force(true);
        }
        Files.createLink(file(root), tmp);
        return created;
      } catch (FileAlreadyExistsException e) {
        // another process marked the directory first: use its marker
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
    return read(root);
  }
}
