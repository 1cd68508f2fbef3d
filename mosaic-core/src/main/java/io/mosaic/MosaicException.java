package io.mosaic;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.util.Objects;

/**
 * Every failure Mosaic reports on purpose, with a {@link Kind} that front ends map once: Trino to a
 * {@code MosaicErrorCode} and its error type, Spark to an error class, the CLI to an exit code (see
 * docs/architecture.md, "Errors"). The message says what is wrong and what would fix it in words
 * that fit every front end; a front end may add how (a command, a {@code CALL}).
 */
public class MosaicException extends RuntimeException {
  /** What went wrong, as far as the caller can act on it. */
  public enum Kind {
    /** A request, option or configuration value is wrong; the caller can fix it. */
    INVALID_ARGUMENT,
    /** A table, column, device, version or file named by the caller does not exist. */
    NOT_FOUND,
    /** Committed metadata or data failed a check; nothing was modified. */
    CORRUPT,
    /** Another writer or maintenance operation got there first; retrying may succeed. */
    CONFLICT,
    /** A device has no room for a write, by its configured capacity or its file system. */
    DEVICE_FULL,
    /** No placement satisfies the constraints asked for. */
    INFEASIBLE,
    /** The request is understood but Mosaic does not do it (a type, an operation). */
    UNSUPPORTED,
    /** The file system failed below Mosaic. */
    IO
  }

  private final Kind kind;

  public MosaicException(Kind kind, String message) {
    super(message);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  public MosaicException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  public Kind kind() {
    return kind;
  }

  public static MosaicException invalid(String message) {
    return new MosaicException(Kind.INVALID_ARGUMENT, message);
  }

  public static MosaicException notFound(String message) {
    return new MosaicException(Kind.NOT_FOUND, message);
  }

  public static MosaicException unsupported(String message) {
    return new MosaicException(Kind.UNSUPPORTED, message);
  }

  /**
   * A failure of the file system below Mosaic. The JDK's exceptions say only the path where the
   * file system refused, so the two refusals a person fixes outside Mosaic are named here: a folder
   * that is read-only or not ours to write (permission denied, a read-only mount), and a file
   * system with no space left (then of kind {@link Kind#DEVICE_FULL}).
   */
  public static MosaicException io(String message, Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      String text = String.valueOf(t.getMessage());
      String where = t instanceof FileSystemException f && f.getFile() != null ? f.getFile() : null;
      if (text.contains("No space left on device") || text.contains("Disk quota exceeded")) {
        return new MosaicException(
            Kind.DEVICE_FULL,
            message
                + ": the file system"
                + (where == null ? "" : " of " + where)
                + " has no space left; free space on it, or move columns to another device",
            cause);
      }
      if (t instanceof AccessDeniedException
          || text.contains("Read-only file system")
          || text.contains("Operation not permitted")) {
        return new MosaicException(
            Kind.IO,
            message
                + ": "
                + (where == null ? "the folder" : where)
                + " is read-only or not writable by this user ("
                + (t instanceof FileSystemException f && f.getReason() != null
                    ? f.getReason()
                    : "permission denied")
                + "); make it writable (permissions, owner, or a read-write mount) and run again",
            cause);
      }
    }
    return new MosaicException(Kind.IO, message, cause);
  }
}
