-- Runs once, when the source's data volume is first created (docker-entrypoint-initdb.d).
-- The sample table the pipeline in deploy/tidemark/pipeline.yaml captures, with a few rows to snapshot.
CREATE TABLE public.orders (
    id         integer PRIMARY KEY,
    item       text    NOT NULL,
    qty        integer NOT NULL,
    price      numeric(10, 2) NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO public.orders (id, item, qty, price) VALUES
    (1, 'tide table',    2,  12.50),
    (2, 'chart',         1,  40.00),
    (3, 'compass',       1,  89.90),
    (4, 'rope (10 m)',   3,  15.75),
    (5, 'buoy',          4,  22.00);
