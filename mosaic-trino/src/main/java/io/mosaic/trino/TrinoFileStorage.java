package io.mosaic.trino;

import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageCapabilities;
import io.mosaic.storage.StorageKeys;
import io.trino.filesystem.FileEntry;
import io.trino.filesystem.FileIterator;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import io.trino.filesystem.TrinoInput;
import io.trino.filesystem.TrinoInputFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Core's {@link Storage} over a catalog's {@link TrinoFileSystem}, so the catalog's own file-system
 * configuration applies, as Trino's Iceberg connector reads through it. Trino's file systems have
 * exclusive create ({@code TrinoOutputFile.createExclusive}, where the backend supports it) and no
 * locks, appends or placement policies (docs/format.md, "Storage backends").
 */
final class TrinoFileStorage implements Storage {
  private static final StorageCapabilities CAPABILITIES =
      new StorageCapabilities(true, false, false, false, false, false);

  private final TrinoFileSystem fileSystem;
  private final Location root;

  TrinoFileStorage(TrinoFileSystem fileSystem, Location root) {
    this.fileSystem = fileSystem;
    this.root = root;
  }

  private Location location(String key) {
    StorageKeys.check(key);
    return key.isEmpty() ? root : root.appendPath(key);
  }

  @Override
  public URI root() {
    String s = root.toString();
    return URI.create(s.endsWith("/") ? s : s + "/");
  }

  @Override
  public StorageCapabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public ReadFile open(String key) throws IOException {
    TrinoInputFile file = fileSystem.newInputFile(location(key));
    long length;
    try {
      length = file.length();
    } catch (FileNotFoundException e) {
      throw missing(key, e);
    }
    TrinoInput input = file.newInput();
    return new ReadFile() {
      @Override
      public long length() {
        return length;
      }

      @Override
      public int read(ByteBuffer dst, long position) throws IOException {
        if (position >= length) {
          return -1;
        }
        int n = (int) Math.min(dst.remaining(), length - position);
        if (dst.hasArray()) {
          input.readFully(position, dst.array(), dst.arrayOffset() + dst.position(), n);
          dst.position(dst.position() + n);
        } else {
          byte[] bytes = new byte[n];
          input.readFully(position, bytes, 0, n);
          dst.put(bytes);
        }
        return n;
      }

      @Override
      public void close() throws IOException {
        input.close();
      }
    };
  }

  private static NoSuchFileException missing(String key, Exception cause) {
    NoSuchFileException e = new NoSuchFileException(key);
    e.initCause(cause);
    return e;
  }

  @Override
  public OutputStream create(String key) throws IOException {
    Location location = location(key);
    if (fileSystem.newInputFile(location).exists()) {
      throw new FileAlreadyExistsException(location.toString());
    }
    return fileSystem.newOutputFile(location).create();
  }

  @Override
  public void createExclusive(String key, byte[] content) throws IOException {
    try {
      fileSystem.newOutputFile(location(key)).createExclusive(content);
    } catch (FileAlreadyExistsException e) {
      throw e;
    } catch (java.nio.file.FileSystemException e) {
      if (fileSystem.newInputFile(location(key)).exists()) {
        FileAlreadyExistsException exists = new FileAlreadyExistsException(key);
        exists.initCause(e);
        throw exists;
      }
      throw e;
    }
  }

  @Override
  public void replace(String key, byte[] content) throws IOException {
    fileSystem.newOutputFile(location(key)).createOrOverwrite(content);
  }

  @Override
  public Optional<FileStatus> stat(String key) throws IOException {
    Location location = location(key);
    TrinoInputFile file = fileSystem.newInputFile(location);
    if (!key.isEmpty() && file.exists()) {
      return Optional.of(
          new FileStatus(
              key,
              StorageKeys.name(key),
              false,
              file.length(),
              file.lastModified().toEpochMilli()));
    }
    if (fileSystem.directoryExists(location).orElse(false)) {
      return Optional.of(new FileStatus(key, StorageKeys.name(key), true, 0, 0));
    }
    return Optional.empty();
  }

  @Override
  public List<FileStatus> list(String prefix) throws IOException {
    Location folder = location(prefix);
    TreeMap<String, FileStatus> found = new TreeMap<>();
    // Trino lists files recursively and folders apart: a file below a child folder names that
    // folder, which also covers object stores, whose folders exist only as prefixes.
    String base = folder.toString().endsWith("/") ? folder.toString() : folder + "/";
    FileIterator files;
    try {
      files = fileSystem.listFiles(folder);
    } catch (FileNotFoundException e) {
      return List.of();
    }
    while (files.hasNext()) {
      FileEntry entry = files.next();
      String full = entry.location().toString();
      if (!full.startsWith(base)) {
        continue;
      }
      String rest = full.substring(base.length());
      int slash = rest.indexOf('/');
      if (slash < 0) {
        found.put(
            rest,
            new FileStatus(
                StorageKeys.join(prefix, rest),
                rest,
                false,
                entry.length(),
                entry.lastModified().toEpochMilli()));
      } else {
        String name = rest.substring(0, slash);
        found.putIfAbsent(name, new FileStatus(StorageKeys.join(prefix, name), name, true, 0, 0));
      }
    }
    for (Location dir : fileSystem.listDirectories(folder)) {
      String full = dir.toString();
      String rest = full.startsWith(base) ? full.substring(base.length()) : full;
      rest = rest.endsWith("/") ? rest.substring(0, rest.length() - 1) : rest;
      if (!rest.isEmpty() && rest.indexOf('/') < 0) {
        found.putIfAbsent(rest, new FileStatus(StorageKeys.join(prefix, rest), rest, true, 0, 0));
      }
    }
    List<FileStatus> list = new ArrayList<>(found.values());
    list.sort(Comparator.comparing(FileStatus::name));
    return list;
  }

  @Override
  public boolean delete(String key) throws IOException {
    Optional<FileStatus> status = stat(key);
    if (status.isEmpty()) {
      return false;
    }
    if (status.get().folder()) {
      if (!list(key).isEmpty()) {
        throw new java.nio.file.DirectoryNotEmptyException(location(key).toString());
      }
      fileSystem.deleteDirectory(location(key));
    } else {
      fileSystem.deleteFile(location(key));
    }
    return true;
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return root.toString();
  }
}
