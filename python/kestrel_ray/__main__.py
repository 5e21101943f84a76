import sys

from kestrel_ray.driver import main

sys.exit(main(sys.argv[1:]))
