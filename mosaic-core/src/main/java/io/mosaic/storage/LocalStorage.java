package io.mosaic.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A local directory (the embedded default): POSIX file systems give exclusive create by hard link,
 * atomic rename, advisory locks, append and in-place writes.
 */
public final class LocalStorage implements Storage {
  static final StorageCapabilities CAPABILITIES =
      new StorageCapabilities(true, false, true, true, false, true);
  static final String TEMPORARY_PREFIX = ".tmp-";

  private final Path root;

  public LocalStorage(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** The local file of a key: what code that still needs a {@link Path} works on. */
  public Path path(String key) {
    StorageKeys.check(key);
    return key.isEmpty() ? root : root.resolve(key);
  }

  @Override
  public URI root() {
    return root.toUri();
  }

  @Override
  public StorageCapabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public ReadFile open(String key) throws IOException {
    FileChannel channel = FileChannel.open(path(key), StandardOpenOption.READ);
    return new ReadFile() {
      @Override
      public long length() throws IOException {
        return channel.size();
      }

      @Override
      public int read(ByteBuffer dst, long position) throws IOException {
        return channel.read(dst, position);
      }

      @Override
      public void close() throws IOException {
        channel.close();
      }
    };
  }

  @Override
  public OutputStream create(String key) throws IOException {
    Path file = path(key);
    Files.createDirectories(file.getParent());
    FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return new OutputStream() {
      private final OutputStream out = Channels.newOutputStream(channel);

      @Override
      public void write(int b) throws IOException {
        out.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        if (channel.isOpen()) {
          try {
            channel.force(true);
          } finally {
            channel.close();
          }
        }
      }
    };
  }

  @Override
  public void createExclusive(String key, byte[] content) throws IOException {
    Path file = path(key);
    Path tmp = writeTemporary(file, content);
    try {
      // A hard link fails when the name exists, and the name appears with all of its bytes.
      Files.createLink(file, tmp);
    } finally {
      Files.deleteIfExists(tmp);
    }
    forceDirectory(file.getParent());
  }

  @Override
  public void replace(String key, byte[] content) throws IOException {
    Path file = path(key);
    Path tmp = writeTemporary(file, content);
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
    forceDirectory(file.getParent());
  }

  private static Path writeTemporary(Path file, byte[] content) throws IOException {
    Files.createDirectories(file.getParent());
    Path tmp = file.resolveSibling(TEMPORARY_PREFIX + UUID.randomUUID());
    try (FileChannel channel =
        FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.wrap(content);
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
      channel.force(true);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    return tmp;
  }

  private static void forceDirectory(Path dir) {
    // Makes the new name durable; some file systems refuse to open a directory, which only
    // weakens durability there, as it would for any program.
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // best effort
    }
  }

  @Override
  public void overwrite(String key, long position, byte[] bytes) throws IOException {
    try (FileChannel channel = FileChannel.open(path(key), StandardOpenOption.WRITE)) {
      if (position + bytes.length > channel.size()) {
        throw new IOException(path(key) + ": an overwrite may not extend the file");
      }
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      while (buf.hasRemaining()) {
        channel.write(buf, position + buf.position());
      }
      channel.force(false);
    }
  }

  @Override
  public Optional<FileStatus> stat(String key) throws IOException {
    Path file = path(key);
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    return Optional.of(status(key, file, attributes));
  }

  private static FileStatus status(String key, Path file, BasicFileAttributes attributes) {
    return new FileStatus(
        key,
        file.getFileName() == null ? "" : file.getFileName().toString(),
        attributes.isDirectory(),
        attributes.isDirectory() ? 0 : attributes.size(),
        attributes.lastModifiedTime().toMillis());
  }

  @Override
  public List<FileStatus> list(String prefix) throws IOException {
    Path dir = path(prefix);
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
      return List.of();
    }
    List<FileStatus> found = new ArrayList<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
      for (Path child : children) {
        String name = child.getFileName().toString();
        try {
          found.add(
              status(
                  StorageKeys.join(prefix, name),
                  child,
                  Files.readAttributes(child, BasicFileAttributes.class)));
        } catch (NoSuchFileException e) {
          // deleted while listing: it is not there
        }
      }
    } catch (NoSuchFileException e) {
      return List.of();
    }
    found.sort(Comparator.comparing(FileStatus::name));
    return found;
  }

  @Override
  public boolean delete(String key) throws IOException {
    return Files.deleteIfExists(path(key));
  }

  @Override
  public Optional<Long> quota(String folder) {
    return Optional.empty();
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return root.toString();
  }
}
