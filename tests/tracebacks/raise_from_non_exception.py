raise ValueError from 5
