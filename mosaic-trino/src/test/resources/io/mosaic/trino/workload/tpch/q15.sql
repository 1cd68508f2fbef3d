-- TPC-H Q15 (spec 2.18, clause 2.4.15), written with a WITH clause instead of the spec's
-- CREATE VIEW revenue0 / DROP VIEW pair: the tpch catalog cannot hold views, and a WITH clause
-- referenced twice is planned as two scans of lineitem, exactly as the view would be.
WITH revenue AS (
  SELECT
    l_suppkey AS supplier_no,
    sum(l_extendedprice * (1 - l_discount)) AS total_revenue
  FROM
    lineitem
  WHERE
    l_shipdate >= DATE '1996-01-01'
    AND l_shipdate < DATE '1996-01-01' + INTERVAL '3' MONTH
  GROUP BY
    l_suppkey
)
SELECT
  s_suppkey,
  s_name,
  s_address,
  s_phone,
  total_revenue
FROM
  supplier,
  revenue
WHERE
  s_suppkey = supplier_no
  AND total_revenue = (
    SELECT max(total_revenue)
    FROM
      revenue
  )
ORDER BY
  s_suppkey
