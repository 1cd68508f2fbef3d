package io.mosaic.cold;

/**
 * A read a query asks of a cold device: one object (a column chunk) stored in one disk group.
 *
 * @param query the query it serves (Skipper's client proxy tags every request with it)
 * @param group the disk group holding the object
 * @param relation the table (and column) it belongs to: objects of one group are returned evenly
 *     across a query's relations, so a join can progress (Section 4.4, "What ordering within a
 *     group?")
 * @param object what to read
 */
record ColdRequest(String query, int group, String relation, Object object) {}
