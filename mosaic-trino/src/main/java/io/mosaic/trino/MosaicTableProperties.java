package io.mosaic.trino;

import static io.mosaic.trino.MosaicErrorCode.MOSAIC_BAD_TABLE_PROPERTY;

import io.mosaic.format.TableProperties;
import io.trino.spi.TrinoException;
import io.trino.spi.session.PropertyMetadata;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code CREATE TABLE ... WITH (row_group_rows = ..., default_device = ..., sorted_by = ...)}. */
final class MosaicTableProperties {
  static final String ROW_GROUP_ROWS = "row_group_rows";
  static final String DEFAULT_DEVICE = "default_device";
  static final String SORTED_BY = "sorted_by";

  private MosaicTableProperties() {}

  static List<PropertyMetadata<?>> all() {
    return List.of(
        PropertyMetadata.longProperty(
            ROW_GROUP_ROWS,
            "Rows per row group (the unit of splits and of skipping); default 1048576",
            null,
            false),
        PropertyMetadata.stringProperty(
            DEFAULT_DEVICE,
            "Device (id in devices.toml) of the table's columns until a placement moves them",
            null,
            false),
        PropertyMetadata.stringProperty(
            SORTED_BY,
            "Column each row group's rows are sorted by as they are written (ascending, nulls"
                + " first)",
            null,
            false));
  }

  static Map<String, String> toMosaic(Map<String, Object> properties) {
    Map<String, String> out = new LinkedHashMap<>();
    Object rows = properties.get(ROW_GROUP_ROWS);
    if (rows != null) {
      if ((Long) rows <= 0) {
        throw new TrinoException(
            MOSAIC_BAD_TABLE_PROPERTY,
            ROW_GROUP_ROWS + " = " + rows + " must be a positive number of rows");
      }
      out.put(TableProperties.ROW_GROUP_ROWS, rows.toString());
    }
    Object device = properties.get(DEFAULT_DEVICE);
    if (device != null) {
      out.put(TableProperties.DEFAULT_DEVICE, device.toString());
    }
    Object sortedBy = properties.get(SORTED_BY);
    if (sortedBy != null) {
      out.put(TableProperties.SORTED_BY, sortedBy.toString());
    }
    return out;
  }
}
