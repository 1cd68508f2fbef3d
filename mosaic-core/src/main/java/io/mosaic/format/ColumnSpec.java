package io.mosaic.format;

import java.io.Serializable;

/** One column of a table: its name, type and whether it may hold nulls. */
public record ColumnSpec(String name, ColumnType type, boolean nullable) implements Serializable {}
