package io.mosaic.table;

import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import java.io.IOException;
import java.util.Map;

/**
 * The rows of a version a condition matches, by position: what a replace-where deletes ({@link
 * MosaicTable#replaceWhere}; docs/format.md, "Deletion vectors"). Core's predicates implement it in
 * {@code io.mosaic.scan.RowMatcher}, above this package.
 */
@FunctionalInterface
public interface RowCondition {
  /**
   * Per row group of {@code version} from {@code firstRowGroup} on, the positions of its live rows
   * (not deleted in {@code version}) the condition matches; row groups without a match are absent.
   * The caller keeps {@code version}'s files (a pin, or it is the latest).
   */
  Map<Integer, DeletedRows> matches(Manifest version, int firstRowGroup) throws IOException;
}
