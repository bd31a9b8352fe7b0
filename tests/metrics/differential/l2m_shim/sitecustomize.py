"""Put on ``PYTHONPATH`` of the l2metrics 3.1.0 process only: numpy 2 removed the ``np.NaN``
alias that l2metrics 3.1.0 uses on every path that yields a NaN task value (a task without
recovery time, say). This restores that one alias and nothing else; l2metrics' own code and
command line run unchanged."""

import numpy as np

if "NaN" not in np.__dict__:
    np.NaN = np.nan
