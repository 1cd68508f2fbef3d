package io.mosaic.storage;

/**
 * What a backend guarantees beyond {@link Storage}'s common operations (docs/format.md, "Storage
 * backends").
 *
 * @param exclusiveCreate {@link Storage#createExclusive} is atomic and exactly one racer wins
 * @param renameNoReplace a rename that fails when the target exists
 * @param posixLocks advisory file locks that the operating system releases when a process dies
 * @param append files can be appended to
 * @param placement folders take placement policies (HDFS storage policies)
 * @param inPlaceWrite bytes of a closed file can be overwritten in place
 */
public record StorageCapabilities(
    boolean exclusiveCreate,
    boolean renameNoReplace,
    boolean posixLocks,
    boolean append,
    boolean placement,
    boolean inPlaceWrite) {}
